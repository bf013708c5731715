import { readFileSync } from 'node:fs';
import { Agent } from '../../agent/agent.js';
import { ModelConfigError } from '../../provider/model_spec.js';
import { createRuntime } from '../../runtime/create_runtime.js';
import type { SessionLog } from '../../session/log.js';
import { type CommonOptions, runtimeOptionsFrom } from '../commands/runtime_from_options.js';
import {
  findResumePoint,
  modelNameFor,
  NO_MODEL,
  openSessionLog,
  RECORDED,
  setUpModel,
  UsageError,
} from '../run_setup.js';
import { createPrinter, exitCodeFor, type OutputFormat } from './output.js';
import { headlessUserSide } from './user_side.js';

export interface HeadlessOptions extends CommonOptions {
  prompt: string;
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  outputFormat: OutputFormat;
  maxTurns?: number;
  jsonSchema?: string;
  answers?: string;
  resume?: string;
  continue?: boolean;
  verbose?: boolean;
}

function readJsonSchema(file: string): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`--json-schema ${file}: ${(error as Error).message}`);
  }
}

/** `lathe -p`: one prompt, run to its end without a user; the exit code says how it ended. */
export async function runHeadless(opts: HeadlessOptions): Promise<number> {
  const started = performance.now();
  const printer = createPrinter(opts.outputFormat, opts.verbose ?? false);
  let log: SessionLog | undefined;
  let sandboxNotice: Promise<void> | undefined;
  let mcp: Promise<{ close(): Promise<void> } | undefined> | undefined;
  try {
    const jsonSchema = opts.jsonSchema ? readJsonSchema(opts.jsonSchema) : undefined;
    const runtimeOptions = { ...runtimeOptionsFrom(opts), jsonSchema: jsonSchema !== undefined };
    const resumed = findResumePoint(runtimeOptions, opts);
    const runtime = createRuntime({ ...runtimeOptions, sessionId: resumed?.id });
    for (const warning of runtime.warnings) process.stderr.write(`lathe: warning: ${warning}\n`);
    // MCP servers connect in parallel, not before the first request; their tools join as each comes up.
    const report = (line: string) => process.stderr.write(`lathe: ${line}\n`);
    mcp = import('../../mcp/attach.js')
      .then(({ attachMcp }) => attachMcp(runtime, { report }))
      .catch((error) => {
        report(`MCP: ${(error as Error).message}`);
        return undefined;
      });
    // Probed alongside the first request, not before it; the line comes as soon as it is known.
    sandboxNotice = runtime.checkSandbox().then((status) => {
      if (!status.active && runtime.settings.sandbox.mode !== 'off') {
        process.stderr.write(`lathe: sandbox: ${status.reason}; commands run without a sandbox\n`);
      }
    });
    const modelName = modelNameFor(runtime, opts.model);
    if (!modelName) throw new UsageError(NO_MODEL);
    const { capabilities, model, providerOptions } = await setUpModel(runtime, modelName, {
      baseUrl: opts.baseUrl,
      apiKey: opts.apiKey,
    });

    log = openSessionLog(runtime, resumed?.path, {
      model: modelName,
      profile: runtime.conditions.profile,
      mode: runtime.conditions.mode,
      prompt: opts.prompt,
    });
    const session = log;
    const agent = new Agent({
      runtime,
      model,
      modelName,
      capabilities,
      user: headlessUserSide({ answersFile: opts.answers, yolo: opts.yolo }),
      maxTurns: opts.maxTurns,
      providerOptions,
      jsonSchema,
      history: resumed?.history ?? [],
      retryBaseMs: Number(process.env.LATHE_RETRY_BASE_MS) || undefined,
      onEvent: (event) => {
        if (RECORDED(event)) session.append(event as never);
        printer.event(event);
      },
      onMessage: (message) => session.append({ type: 'model_message', message }),
      onCompacted: (messages) => session.append({ type: 'compacted_messages', messages }),
    });

    const controller = new AbortController();
    const interrupt = () => controller.abort();
    process.once('SIGINT', interrupt);
    process.once('SIGTERM', interrupt);
    const outcome = await agent.send(opts.prompt, controller.signal);
    runtime.stopBackgroundCommands();
    // Tasks, schedules, the trigger endpoint and the runs they started end with the run.
    await runtime.dispose();
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
    session.append({ type: 'session_end', reason: outcome.kind, usage: outcome.usage });
    printer.finish({ outcome, sessionId: session.id, durationMs: performance.now() - started });
    return exitCodeFor(outcome);
  } catch (error) {
    const known = error instanceof UsageError || error instanceof ModelConfigError;
    process.stderr.write(`lathe: ${known ? error.message : ((error as Error).stack ?? String(error))}\n`);
    return known ? 2 : 1;
  } finally {
    await sandboxNotice;
    // Ends the stdio servers: their processes would otherwise keep lathe alive.
    await (await mcp)?.close();
    log?.close();
  }
}
