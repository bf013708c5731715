import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { ConversationMessage } from '../agent/model_stream.js';
import { historyFromEvents } from '../agent/session_history.js';
import { type ModelSource, modelSourceBeside } from '../agent/subagents/child_model.js';
import type { Effort } from '../config/types.js';
import { MODES, PROFILES } from '../config/types.js';
import type { McpServerConfig } from '../mcp/config.js';
import type { Elicit } from '../mcp/elicitation.js';
import type { McpHub } from '../mcp/hub.js';
import { capabilitiesFor, type ModelCapabilities } from '../provider/capabilities.js';
import { createModel, providerOptionsFor } from '../provider/create_model.js';
import { type ModelSpec, parseModelSpec } from '../provider/model_spec.js';
import { type Runtime, type RuntimeOptions, runtimePlaces } from '../runtime/create_runtime.js';
import { findSession, latestSession, type SessionSummary } from '../session/catalog.js';
import type { SessionEvent } from '../session/event.js';
import { forkSessionLog, unkeptSessionFolder } from '../session/fork.js';
import { newSessionId } from '../session/ids.js';
import { SessionLog } from '../session/log.js';
import { readSessionTail, type SessionSettings } from '../session/tail.js';
import { worktreesRoot } from '../worktree/places.js';

/**
 * The pieces every run is assembled from — where a session resumes, the model, the session
 * log — shared by the headless runner and the interactive UI so both behave the same.
 */

import { UsageError } from './errors.js';

export { UsageError };

export interface ResumePoint {
  history: ConversationMessage[];
  path: string;
  id: string;
  /** The model, profile and mode the session ran with last. */
  settings: SessionSettings;
  /** The last events of the log, for showing where the conversation stands. */
  recent: SessionEvent[];
  /** Damaged records skipped while reading the log, one line each. */
  warnings: string[];
  /**
   * Set for `--fork`: the session whose history this one starts from (`path` is its log, `id`
   * the new session's).
   */
  forkedFrom?: string;
}

/** Where a run's session is written: `--no-session` keeps none, `--fork` starts a new one. */
export interface SessionChoice {
  resume?: string;
  continue?: boolean;
  fork?: string;
  noSession?: boolean;
}

/**
 * The session `--resume ID` or `--continue` names, read back into a conversation. Where the
 * session resumes from decides the session id, and so the runtime's folder.
 */
export function findResumePoint(
  runtimeOptions: RuntimeOptions,
  opts: SessionChoice,
): ResumePoint | undefined {
  const named = opts.fork ?? opts.resume;
  if (!named && !opts.continue) return undefined;
  const scope = runtimePlaces(runtimeOptions);
  const found = named ? findSession(scope.documentsRoot, scope.workspace, named) : latestSession(scope);
  if (!found) throw new UsageError(named ? `no session matches "${named}"` : 'no session to continue here');
  const point = loadResumePoint(found, scope.workspace);
  return opts.fork ? { ...point, id: newSessionId(), forkedFrom: found.id } : point;
}

/**
 * Reads a found session back, from the end of its log. A session of another folder is refused
 * with the command that resumes it where it belongs: its tools must never run in another tree.
 */
export function loadResumePoint(found: SessionSummary, workspace: string): ResumePoint {
  if (found.workspace !== workspace) {
    const where = found.workspace
      ? `belongs to ${found.workspace}; run: cd ${shellQuote(found.workspace)} && lathe --resume ${found.id}`
      : `was recorded in another folder (${dirname(found.path)}); run lathe --resume ${found.id} from that folder`;
    throw new UsageError(`session ${found.id} ${where}`);
  }
  const tail = readSessionTail(found.path);
  return {
    history: historyFromEvents(tail.conversation),
    path: found.path,
    id: found.id,
    settings: tail.settings,
    recent: tail.recent,
    warnings: tail.warnings,
  };
}

/** The run options a resumed session restores: its profile and mode, unless the flags name others. */
export function withSessionSettings(
  options: RuntimeOptions,
  resumed: ResumePoint | undefined,
): RuntimeOptions {
  const { profile, mode } = resumed?.settings ?? {};
  return {
    ...options,
    profile: options.profile ?? PROFILES.find((known) => known === profile),
    mode: options.mode ?? MODES.find((known) => known === mode),
  };
}

function shellQuote(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
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
  effort?: Effort;
  optionsForEffort(effort: Effort | undefined): ReturnType<typeof providerOptionsFor>;
  /** The models child agents run when their type or call names another one. */
  childModels: ModelSource;
}

/** What the model can do (the settings' context window over its own), told to the runtime: the pool follows. */
export function applyCapabilities(runtime: Runtime, spec: ModelSpec): ModelCapabilities {
  const capabilities = capabilitiesFor(
    spec,
    runtime.settings.contextWindow ? { contextWindow: runtime.settings.contextWindow } : {},
  );
  runtime.setCapabilities({
    images: capabilities.images,
    browserUse: capabilities.browserUse,
    nativeTools: capabilities.nativeTools,
  });
  return capabilities;
}

/**
 * Loads a model and tells the runtime what it can do (the pool follows). The effort is the
 * flag's, else the settings'.
 */
export async function setUpModel(
  runtime: Runtime,
  modelName: string,
  endpoint: { baseUrl?: string; apiKey?: string; effort?: Effort } = {},
): Promise<ModelSetup> {
  const spec = parseModelSpec(modelName);
  const capabilities = applyCapabilities(runtime, spec);
  const connection = {
    baseUrl: endpoint.baseUrl,
    apiKey: endpoint.apiKey,
    timeouts: runtime.settings.modelTimeouts,
  };
  const model = await createModel(spec, connection);
  const effort = endpoint.effort ?? runtime.settings.effort;
  return {
    modelName,
    spec,
    capabilities,
    model,
    providerOptions: providerOptionsFor(spec, effort),
    effort,
    optionsForEffort: (level) => providerOptionsFor(spec, level),
    childModels: modelSourceBeside({ provider: spec.provider, endpoint: connection }),
  };
}

/**
 * The session log: the resumed one reopened, a fork of it (`forked`), or a new one with what
 * describes the run; under `--no-session` a new one goes to a folder removed at exit.
 */
export function openSessionLog(
  runtime: Runtime,
  resumePath: string | undefined,
  meta: Record<string, unknown>,
  onWriteError?: (message: string) => void,
  choice: { forked?: ResumePoint; noSession?: boolean } = {},
): SessionLog {
  const created = {
    documentsRoot: runtime.documentsRoot,
    workspace: runtime.workspace,
    id: runtime.sessionId,
    meta,
    onWriteError,
  };
  const { forked } = choice;
  if (forked?.forkedFrom && resumePath === forked.path)
    return forkSessionLog({ path: forked.path, id: forked.forkedFrom }, created);
  if (resumePath) return SessionLog.open(resumePath, { meta, onWriteError });
  return SessionLog.create(choice.noSession ? { ...created, dir: unkeptSessionFolder() } : created);
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
  options: { probeSandboxLater?: boolean; mcpServers?: readonly McpServerConfig[]; elicit?: Elicit } = {},
): RuntimeServices {
  let probing = false;
  let ended = false;
  const mcp = import('../mcp/attach.js')
    .then(({ attachMcp }) =>
      attachMcp(runtime, { report, servers: options.mcpServers, elicit: options.elicit }),
    )
    .catch((error) => {
      report(`MCP: ${(error as Error).message}`);
      return undefined;
    });
  const probeSandbox = () => {
    if (probing || ended) return;
    probing = true;
    void runtime.sandboxNotice().then(
      (line) => {
        // A probe still running at the end is stopped (no command needed it): nothing to report.
        if (line && !ended) report(line);
      },
      () => undefined,
    );
  };
  if (!options.probeSandboxLater) probeSandbox();
  // A hook that fails, hangs or has a message for the user says so in a line.
  const stopHookLines = runtime.hooks.set.onWarning(report);
  // A refused or delivered webhook (subscribe_pr) says so in a line.
  const stopWebhookLines = runtime.onWebhookNotice(report);
  const leftovers = pruneLeftoverWorktrees(runtime.documentsRoot, report);
  return {
    mcp,
    probeSandbox,
    end: async () => {
      ended = true;
      await leftovers;
      await runtime.dispose();
      stopHookLines();
      stopWebhookLines();
      // Stdio servers are processes: they would keep lathe alive.
      await (await mcp)?.close();
    },
  };
}

/**
 * Worktrees left by lathe processes that are gone (killed, crashed) are pruned at start: their
 * changes committed on their branches, their folders removed; each is reported in a line.
 */
async function pruneLeftoverWorktrees(documentsRoot: string, report: (line: string) => void): Promise<void> {
  if (!existsSync(worktreesRoot(documentsRoot))) return;
  try {
    const { pruneWorktrees, prunedLine, pruneFailureLine } = await import('../worktree/index.js');
    const { pruned, failed } = await pruneWorktrees({ documentsRoot });
    for (const p of pruned) report(prunedLine(p));
    for (const f of failed) report(pruneFailureLine(f));
  } catch (error) {
    report(`could not prune leftover worktrees: ${(error as Error).message}`);
  }
}

/** The services of a runtime, started (its MCP servers' questions asked through `elicit`); returns what ends them. */
export function attachRuntimeServices(
  runtime: Runtime,
  report: (line: string) => void,
  elicit?: Elicit,
): () => Promise<void> {
  return startRuntimeServices(runtime, report, { elicit }).end;
}
