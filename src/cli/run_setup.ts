import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { AgentEvent } from '../agent/events.js';
import type { ConversationMessage } from '../agent/model_stream.js';
import { historyFromEvents } from '../agent/session_history.js';
import type { McpHub } from '../mcp/hub.js';
import { capabilitiesFor, type ModelCapabilities } from '../provider/capabilities.js';
import { createModel, providerOptionsFor } from '../provider/create_model.js';
import { type ModelSpec, parseModelSpec } from '../provider/model_spec.js';
import { type Runtime, type RuntimeOptions, runtimePlaces } from '../runtime/create_runtime.js';
import { SessionLog } from '../session/log.js';
import { findSession, latestSession, readSessionLog } from '../session/read.js';

/**
 * The pieces every run is assembled from — where a session resumes, the model, the session
 * log — shared by the headless runner and the interactive UI so both behave the same.
 */

/** A mistake in how lathe was called: reported in one line, exit code 2. */
export class UsageError extends Error {}

/** Events written to the session log: everything but the per-token deltas. */
export const RECORDED = (event: AgentEvent) => event.type !== 'text_delta' && event.type !== 'usage';

export interface ResumePoint {
  history: ConversationMessage[];
  path: string;
  id: string;
}

/**
 * The session `--resume ID` or `--continue` names, read back into a conversation. Where the
 * session resumes from decides the session id, and so the runtime's folder.
 */
export function findResumePoint(
  runtimeOptions: RuntimeOptions,
  opts: { resume?: string; continue?: boolean },
): ResumePoint | undefined {
  if (!opts.resume && !opts.continue) return undefined;
  const scope = runtimePlaces(runtimeOptions);
  const found = opts.resume
    ? findSession(scope.documentsRoot, scope.workspace, opts.resume)
    : latestSession(scope);
  if (!found)
    throw new UsageError(opts.resume ? `no session matches "${opts.resume}"` : 'no session to continue here');
  return { history: historyFromEvents(readSessionLog(found.path).events), path: found.path, id: found.id };
}

/** The model a run uses: the flag, else settings, else LATHE_MODEL. */
export function modelNameFor(runtime: Runtime, explicit?: string): string | undefined {
  return explicit ?? runtime.settings.model ?? process.env.LATHE_MODEL;
}

export const NO_MODEL =
  'no model: pass --model provider/model (e.g. anthropic/claude-sonnet-4-5) or set "model" in settings';

export interface ModelSetup {
  modelName: string;
  spec: ModelSpec;
  capabilities: ModelCapabilities;
  model: LanguageModelV3;
  providerOptions: ReturnType<typeof providerOptionsFor>;
}

/** Loads a model and tells the runtime what it can do (the pool follows). */
export async function setUpModel(
  runtime: Runtime,
  modelName: string,
  endpoint: { baseUrl?: string; apiKey?: string } = {},
): Promise<ModelSetup> {
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
  const model = await createModel(spec, { ...endpoint, timeouts: runtime.settings.modelTimeouts });
  return { modelName, spec, capabilities, model, providerOptions: providerOptionsFor(spec) };
}

/** The session log: the resumed one reopened, or a new one with what describes the run. */
export function openSessionLog(
  runtime: Runtime,
  resumePath: string | undefined,
  meta: Record<string, unknown>,
): SessionLog {
  return resumePath
    ? SessionLog.open(resumePath)
    : SessionLog.create({
        documentsRoot: runtime.documentsRoot,
        workspace: runtime.workspace,
        id: runtime.sessionId,
        meta,
      });
}

export interface RuntimeServices {
  /** The MCP servers of the settings (undefined when none is configured), connecting. */
  mcp: Promise<McpHub | undefined>;
  /** Starts the sandbox probe, once; a sandbox that does not work is reported in a line. */
  probeSandbox(): void;
  /** Ends it all: servers, tasks, schedules, commands. */
  end(): Promise<void>;
}

/**
 * What a runtime brings along besides its tools, started without waiting: the MCP servers of
 * the settings (their tools join the pool as each connects) and, unless `probeSandboxLater`
 * (then `probeSandbox()` starts it), the sandbox probe. Problems are reported in a line each.
 */
export function startRuntimeServices(
  runtime: Runtime,
  report: (line: string) => void,
  options: { probeSandboxLater?: boolean } = {},
): RuntimeServices {
  let ended = false;
  let probing = false;
  const mcp = import('../mcp/attach.js')
    .then(({ attachMcp }) => attachMcp(runtime, { report }))
    .catch((error) => {
      report(`MCP: ${(error as Error).message}`);
      return undefined;
    });
  const probeSandbox = () => {
    if (probing || ended) return;
    probing = true;
    void runtime.checkSandbox().then(
      (status) => {
        if (!ended && !status.active && runtime.settings.sandbox.mode !== 'off')
          report(`sandbox: ${status.reason}; commands run without a sandbox`);
      },
      () => undefined,
    );
  };
  if (!options.probeSandboxLater) probeSandbox();
  return {
    mcp,
    probeSandbox,
    end: async () => {
      // A probe still running then is stopped (no command needed it): nothing to report.
      ended = true;
      await runtime.dispose();
      // Stdio servers are processes: they would keep lathe alive.
      await (await mcp)?.close();
    },
  };
}

/** The services of a runtime, started; returns what ends them. */
export function attachRuntimeServices(runtime: Runtime, report: (line: string) => void): () => Promise<void> {
  return startRuntimeServices(runtime, report).end;
}
