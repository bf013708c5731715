import type { ConversationMessage } from '../../agent/model_stream.js';
import type { Mode, Profile } from '../../config/types.js';
import type { Elicit } from '../../mcp/elicitation.js';
import type { Runtime } from '../../runtime/create_runtime.js';
import type { EngineModel } from '../../sdk/engine.js';
import type { SessionEvent } from '../../session/event.js';
import type { SessionLog } from '../../session/log.js';
import type { ApprovalAnswer, ApprovalRequest } from '../../tool/run_call.js';
import type { ImageBlock } from '../../tool/types.js';

/** A model ready to use, with what it can do: what the conversation engine runs on. */
export type LoadedModel = EngineModel;

/** A session found on disk, to resume. */
export interface ResumedSession {
  id: string;
  path: string;
  history: ConversationMessage[];
  /** The model, profile and mode it ran with last. */
  settings?: { model?: string; profile?: string; mode?: string };
  /** The last events of its log, shown on resuming. */
  recent?: SessionEvent[];
  /** Damaged records skipped while reading its log. */
  warnings?: string[];
}

/**
 * What the interactive UI needs from the command line that starts it: how runtimes, models and
 * session logs are made under the user's flags and settings. The CLI implements it with the same
 * assembly the headless runner uses.
 */
export interface ConversationHost {
  createRuntime(options: {
    sessionId?: string;
    profile?: Profile;
    mode?: Mode;
    askUser: (request: ApprovalRequest) => Promise<ApprovalAnswer>;
  }): Runtime;
  /** The model the flags, settings or LATHE_MODEL name. */
  defaultModel(runtime: Runtime): string | undefined;
  /** Loads a model and sets the runtime's capabilities; throws an Error with a clear message. */
  loadModel(runtime: Runtime, modelName: string): Promise<LoadedModel>;
  /** What a model still needs before it can load here (its provider's key or endpoint), in words. */
  missingSetup?(modelName: string): string | undefined;
  /** Opens the session log; `onWriteError` hears, in a line, when the log can't be written. */
  openLog(
    runtime: Runtime,
    resumePath: string | undefined,
    meta: Record<string, unknown>,
    onWriteError?: (message: string) => void,
  ): SessionLog;
  /** Finds a session by id or prefix (throws when ambiguous); undefined when none matches. */
  findSession(runtime: Runtime, idOrPrefix: string): ResumedSession | undefined;
  /**
   * Starts what a runtime brings along (MCP servers, the sandbox probe), reporting problems in
   * a line each; a server's questions go to `elicit`. Returns what ends it all (servers, tasks,
   * background commands).
   */
  attach(runtime: Runtime, report: (line: string) => void, elicit?: Elicit): () => Promise<void>;
  /** The user's instructions for the system prompt (`--system-prompt`, `--append-system-prompt`). */
  systemPrompt?: { replace?: string; append?: string };
  /** Reads an image file for a prompt (`@shot.png`); throws an Error with a clear message. */
  readImage?(path: string): Promise<ImageBlock>;
}
