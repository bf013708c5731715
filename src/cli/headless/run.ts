import { readFileSync } from 'node:fs';
import { SettingsError } from '../../config/settings_file.js';
import type { Effort } from '../../config/types.js';
import { ModelConfigError } from '../../provider/model_spec.js';
import { RuntimeError } from '../../runtime/create_runtime.js';
import type { HeadlessQueryOptions } from '../../sdk/options.js';
import type { PromptFlags } from '../../sdk/prompt_flags.js';
import { query } from '../../sdk/query.js';
import { exitCodeFor } from '../../sdk/run_records.js';
import { UsageError } from '../../sdk/run_setup.js';
import { readAnswers } from '../../sdk/user_side.js';
import { type CommonOptions, runtimeOptionsFrom } from '../commands/runtime_from_options.js';
import { errorLine } from '../errors.js';
import { exitWhenFlushed } from '../exit_when_flushed.js';
import { createPrinter, type OutputFormat } from './output.js';

export interface HeadlessOptions extends CommonOptions, PromptFlags {
  prompt: string;
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  outputFormat: OutputFormat;
  maxTurns?: number;
  maxTokens?: number;
  maxCost?: number;
  jsonSchema?: string;
  answers?: string;
  resume?: string;
  continue?: boolean;
  fork?: string;
  /** false under `--no-session`. */
  session?: boolean;
  verbose?: boolean;
  effort?: Effort;
  /** Image files sent with the prompt (`-i`). */
  image?: string[];
  /** This run is a spawned task, in a new session of this id (hidden `--spawned-task`). */
  spawnedTask?: string;
}

/** The session id of `--spawned-task`, checked: it names a new session's folder. */
function spawnedTaskSession(id: string | undefined): string | undefined {
  if (id === undefined) return undefined;
  if (!/^\d{8}-\d{6}-[0-9a-f]{6}$/.test(id))
    throw new UsageError(`--spawned-task: "${id}" is not a session id`);
  return id;
}

function readJsonSchema(file: string): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`--json-schema ${file}: ${(error as Error).message}`);
  }
}

/** The query the flags stand for: the command line is one more program of the SDK. */
function queryOptions(opts: HeadlessOptions): HeadlessQueryOptions {
  const runtime = runtimeOptionsFrom(opts);
  const spawned = spawnedTaskSession(opts.spawnedTask);
  return {
    cwd: runtime.cwd,
    profile: runtime.profile,
    mode: runtime.mode,
    features: runtime.features,
    approve: runtime.approve,
    yolo: runtime.yolo,
    trust: runtime.trust,
    settings: runtime.settings,
    addDirs: runtime.addDirs,
    latheBin: runtime.latheBin,
    model: opts.model,
    baseUrl: opts.baseUrl,
    apiKey: opts.apiKey,
    effort: opts.effort,
    systemPrompt: opts.systemPrompt,
    appendSystemPrompt: opts.appendSystemPrompt,
    maxTurns: opts.maxTurns,
    maxTokens: opts.maxTokens,
    maxBudgetUsd: opts.maxCost,
    resume: opts.resume,
    continue: opts.continue,
    fork: opts.fork,
    noSession: opts.session === false,
    images: opts.image,
    ...(spawned ? { sessionId: spawned, agentKind: 'task' as const } : {}),
  };
}

/**
 * `lathe -p`: one prompt, run to its end without a user; the exit code says how it ended. The
 * process ends with the run.
 */
export async function runHeadless(opts: HeadlessOptions): Promise<number> {
  return exitWhenFlushed(await runToEnd(opts));
}

async function runToEnd(opts: HeadlessOptions): Promise<number> {
  const printer = createPrinter(opts.outputFormat, opts.verbose ?? false);
  const signals: Array<() => void> = [];
  try {
    const jsonSchema = opts.jsonSchema ? readJsonSchema(opts.jsonSchema) : undefined;
    const answers = opts.answers ? readAnswers(opts.answers) : undefined;
    const run = query({ prompt: opts.prompt, options: { ...queryOptions(opts), jsonSchema, answers } });
    let exitCode = 1;
    for await (const message of run) {
      if (message.type === 'system') {
        printer.start(message);
        // From the start of the run, SIGINT and SIGTERM interrupt it: its result is still printed.
        const interrupt = () => void run.interrupt();
        process.once('SIGINT', interrupt);
        process.once('SIGTERM', interrupt);
        signals.push(
          () => process.off('SIGINT', interrupt),
          () => process.off('SIGTERM', interrupt),
        );
      } else if (message.type === 'result') {
        for (const off of signals.splice(0)) off();
        printer.finish(message);
        exitCode = exitCodeFor({ kind: message.outcome });
      } else {
        printer.event(message);
      }
    }
    return exitCode;
  } catch (error) {
    const known =
      error instanceof UsageError ||
      error instanceof ModelConfigError ||
      error instanceof RuntimeError ||
      error instanceof SettingsError;
    process.stderr.write(`lathe: ${errorLine(error)}\n`);
    return known ? 2 : 1;
  } finally {
    for (const off of signals.splice(0)) off();
  }
}
