import { readFileSync } from 'node:fs';
import { Agent } from '../../agent/agent.js';
import type { AgentEvent } from '../../agent/events.js';
import type { ConversationMessage } from '../../agent/model_stream.js';
import { historyFromEvents } from '../../agent/session_history.js';
import { capabilitiesFor } from '../../provider/capabilities.js';
import { createModel, providerOptionsFor } from '../../provider/create_model.js';
import { ModelConfigError, parseModelSpec } from '../../provider/model_spec.js';
import { createRuntime } from '../../runtime/create_runtime.js';
import { SessionLog } from '../../session/log.js';
import { findSession, latestSession, readSessionLog } from '../../session/read.js';
import { type CommonOptions, runtimeOptionsFrom } from '../commands/runtime_from_options.js';
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

class UsageError extends Error {}

function readJsonSchema(file: string): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`--json-schema ${file}: ${(error as Error).message}`);
  }
}

/** Events written to the session log: everything but the per-token deltas. */
const RECORDED = (event: AgentEvent) => event.type !== 'text_delta' && event.type !== 'usage';

/** `lathe -p`: one prompt, run to its end without a user; the exit code says how it ended. */
export async function runHeadless(opts: HeadlessOptions): Promise<number> {
  const started = performance.now();
  const printer = createPrinter(opts.outputFormat, opts.verbose ?? false);
  let log: SessionLog | undefined;
  let sandboxNotice: Promise<void> | undefined;
  try {
    const jsonSchema = opts.jsonSchema ? readJsonSchema(opts.jsonSchema) : undefined;
    const runtimeOptions = { ...runtimeOptionsFrom(opts), jsonSchema: jsonSchema !== undefined };
    // Where the session resumes from decides the session id, and so the runtime's folder.
    let history: ConversationMessage[] = [];
    let resumePath: string | undefined;
    let sessionId: string | undefined;
    if (opts.resume || opts.continue) {
      const probe = createRuntime(runtimeOptions);
      const scope = { documentsRoot: probe.documentsRoot, workspace: probe.workspace };
      const found = opts.resume
        ? findSession(scope.documentsRoot, scope.workspace, opts.resume)
        : latestSession(scope);
      if (!found)
        throw new UsageError(
          opts.resume ? `no session matches "${opts.resume}"` : 'no session to continue here',
        );
      history = historyFromEvents(readSessionLog(found.path).events);
      resumePath = found.path;
      sessionId = found.id;
    }
    const runtime = createRuntime({ ...runtimeOptions, sessionId });
    for (const warning of runtime.warnings) process.stderr.write(`lathe: warning: ${warning}\n`);
    // Probed alongside the first request, not before it; the line comes as soon as it is known.
    sandboxNotice = runtime.checkSandbox().then((status) => {
      if (!status.active && runtime.settings.sandbox.mode !== 'off') {
        process.stderr.write(`lathe: sandbox: ${status.reason}; commands run without a sandbox\n`);
      }
    });
    const modelName = opts.model ?? runtime.settings.model ?? process.env.LATHE_MODEL;
    if (!modelName)
      throw new UsageError(
        'no model: pass --model provider/model (e.g. anthropic/claude-sonnet-4-5) or set "model" in settings',
      );
    const spec = parseModelSpec(modelName);
    const capabilities = capabilitiesFor(
      spec,
      runtime.settings.contextWindow ? { contextWindow: runtime.settings.contextWindow } : {},
    );
    runtime.setCapabilities({
      images: capabilities.images,
      browserUse: capabilities.browserUse,
      nativeTools: capabilities.nativeTools,
    });
    const model = await createModel(spec, { baseUrl: opts.baseUrl, apiKey: opts.apiKey });

    log = resumePath
      ? SessionLog.open(resumePath)
      : SessionLog.create({
          documentsRoot: runtime.documentsRoot,
          workspace: runtime.workspace,
          id: runtime.sessionId,
          meta: {
            model: modelName,
            profile: runtime.conditions.profile,
            mode: runtime.conditions.mode,
            prompt: opts.prompt,
          },
        });
    const session = log;
    const agent = new Agent({
      runtime,
      model,
      modelName,
      capabilities,
      user: headlessUserSide({ answersFile: opts.answers, yolo: opts.yolo }),
      maxTurns: opts.maxTurns,
      providerOptions: providerOptionsFor(spec),
      jsonSchema,
      history,
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
    log?.close();
  }
}
