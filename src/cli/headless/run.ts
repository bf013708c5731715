import { readFileSync } from 'node:fs';
import { Agent } from '../../agent/agent.js';
import { environmentFor } from '../../agent/environment_prefetch.js';
import { recordAgentEvent, recordCompaction, recordMessage } from '../../agent/session_record.js';
import { SettingsError } from '../../config/settings_file.js';
import type { Effort } from '../../config/types.js';
import { grantTools } from '../../permission/grants.js';
import { ModelConfigError } from '../../provider/model_spec.js';
import { commandModel } from '../../runtime/command_expansion.js';
import { createRuntime, RuntimeError } from '../../runtime/create_runtime.js';
import type { SessionLog } from '../../session/log.js';
import {
  type CommonOptions,
  reportRuntimeNotices,
  runtimeOptionsFrom,
} from '../commands/runtime_from_options.js';
import { errorLine } from '../errors.js';
import { exitWhenFlushed } from '../exit_when_flushed.js';
import { imagesRefusal, type PromptFlags, readImageFile, systemPromptFrom } from '../prompt_flags.js';
import {
  findResumePoint,
  modelNameFor,
  NO_MODEL,
  openSessionLog,
  setUpModel,
  startRuntimeServices,
  UsageError,
  withSessionSettings,
} from '../run_setup.js';
import { createPrinter, exitCodeFor, type OutputFormat } from './output.js';
import { headlessPeerHandler } from './peer_messages.js';
import { headlessPrompt } from './prompt_command.js';
import { headlessUserSide } from './user_side.js';

export interface HeadlessOptions extends CommonOptions, PromptFlags {
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

/**
 * `lathe -p`: one prompt, run to its end without a user; the exit code says how it ended. The
 * process ends with the run.
 */
export async function runHeadless(opts: HeadlessOptions): Promise<number> {
  return exitWhenFlushed(await runToEnd(opts));
}

async function runToEnd(opts: HeadlessOptions): Promise<number> {
  const started = performance.now();
  const printer = createPrinter(opts.outputFormat, opts.verbose ?? false);
  let log: SessionLog | undefined;
  let endServices: (() => Promise<void>) | undefined;
  let revokeGrant: (() => void) | undefined;
  try {
    const jsonSchema = opts.jsonSchema ? readJsonSchema(opts.jsonSchema) : undefined;
    const user = headlessUserSide({ answersFile: opts.answers, yolo: opts.yolo });
    const runtimeOptions = { ...runtimeOptionsFrom(opts), jsonSchema: jsonSchema !== undefined };
    const resumed = findResumePoint(runtimeOptions, opts);
    const spawned = spawnedTaskSession(opts.spawnedTask);
    const runtime = createRuntime({
      ...withSessionSettings(runtimeOptions, resumed),
      sessionId: resumed?.id ?? spawned,
      ...(spawned ? { agentKind: 'task' as const } : {}),
    });
    reportRuntimeNotices(runtime);
    const warn = (line: string) => process.stderr.write(`lathe: warning: ${line}\n`);
    for (const warning of resumed?.warnings ?? []) warn(warning);
    // git status for the system prompt runs while the model and the servers load.
    const environment = environmentFor(runtime.cwd);
    environment.catch(() => undefined); // awaited by the first request, which reports a failure
    const report = (line: string) => process.stderr.write(`lathe: ${line}\n`);
    // MCP servers start while the model loads. The sandbox probe waits for the first tool call:
    // a run without one never needs it, and its process would compete with the first request
    // and the exit (a command waits for it; a sandbox that does not work is reported then).
    const services = startRuntimeServices(runtime, report, { probeSandboxLater: true });
    endServices = services.end;
    // `/name args`: a custom command or workflow, expanded (its commands may need the sandbox).
    if (opts.prompt.trim().startsWith('/')) services.probeSandbox();
    const prompt = await headlessPrompt(runtime, opts.prompt);
    const sessionModel = modelNameFor(runtime, opts.model ?? resumed?.settings.model);
    const modelName = commandModel(prompt.model, sessionModel);
    if (!modelName) throw new UsageError(NO_MODEL);
    if (prompt.command && prompt.allowedTools)
      revokeGrant = grantTools(
        runtime.permissions,
        prompt.allowedTools,
        `${prompt.command.path} (allowed-tools)`,
      );
    const { capabilities, model, providerOptions, childModels } = await setUpModel(runtime, modelName, {
      baseUrl: opts.baseUrl,
      apiKey: opts.apiKey,
      effort: opts.effort,
    });
    const refusal = opts.image?.length ? imagesRefusal(modelName, capabilities) : undefined;
    if (refusal) throw new UsageError(refusal);
    const images = await Promise.all((opts.image ?? []).map(readImageFile));
    // The first request offers the servers' tools: wait for them, at most mcp.startupTimeout.
    const hub = await services.mcp;
    if (hub) {
      const { waitForMcpStartup } = await import('../../mcp/attach.js');
      await waitForMcpStartup(
        hub,
        runtime.settings.mcp.startupTimeoutMs,
        report,
        'going on without its tools, which join when it is up',
      );
    }

    log = openSessionLog(
      runtime,
      resumed?.path,
      {
        model: modelName,
        profile: runtime.conditions.profile,
        mode: runtime.conditions.mode,
        prompt: opts.prompt,
      },
      warn,
    );
    const session = log;
    const agent = new Agent({
      runtime,
      model,
      modelName,
      capabilities,
      user,
      maxTurns: opts.maxTurns,
      providerOptions,
      systemPrompt: systemPromptFrom(opts),
      jsonSchema,
      history: resumed?.history ?? [],
      retryBaseMs: Number(process.env.LATHE_RETRY_BASE_MS) || undefined,
      environment,
      subagents: { models: childModels },
      onEvent: (event) => {
        if (event.type === 'tool_call') services.probeSandbox();
        recordAgentEvent(session, event);
        printer.event(event);
      },
      onMessage: (message) => recordMessage(session, message),
      onCompacted: (messages) => recordCompaction(session, messages),
    });
    // Messages from other lathe processes (feature peers): shown on stderr, given to the agent.
    runtime.onPeerMessage(headlessPeerHandler(report, (note) => agent.notify(note)));
    const { approve, yolo } = runtimeOptions;
    printer.start({ sessionId: session.id, model: modelName, runtime, approve, yolo });

    const controller = new AbortController();
    const interrupt = () => controller.abort();
    process.once('SIGINT', interrupt);
    process.once('SIGTERM', interrupt);
    const outcome = await agent.send(prompt.text, controller.signal, images);
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
    session.append({ type: 'session_end', reason: outcome.kind, usage: outcome.usage });
    printer.finish({ outcome, sessionId: session.id, durationMs: performance.now() - started });
    return exitCodeFor(outcome);
  } catch (error) {
    const known =
      error instanceof UsageError ||
      error instanceof ModelConfigError ||
      error instanceof RuntimeError ||
      error instanceof SettingsError;
    process.stderr.write(`lathe: ${errorLine(error)}\n`);
    return known ? 2 : 1;
  } finally {
    // A command's pre-approved tools last for its prompt only.
    revokeGrant?.();
    // Tasks, schedules, MCP servers and the runs they started end with the run.
    await endServices?.();
    log?.close();
  }
}
