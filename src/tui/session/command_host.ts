import type { ConversationMessage } from '../../agent/model_stream.js';
import type { Effort, Mode, Profile } from '../../config/types.js';
import type { Runtime } from '../../runtime/create_runtime.js';
import type { ContextReport } from '../../tool/context/conversation.js';
import type { UiStore } from '../state/store.js';
import type { ResumedSession } from './host.js';

/** What a custom command sets for its one prompt: another model, tools approved in advance (and where they come from). */
export interface PromptOptions {
  model?: string;
  allowedTools?: string[];
  source?: string;
}

/** What a slash command may see and do of the session it runs in. */
export interface CommandHost {
  readonly store: UiStore;
  readonly runtime: Runtime;
  readonly modelName: string | undefined;
  readonly effortName: string;
  /** What a model still needs before it can load here (a key, an endpoint), in words; undefined when nothing. */
  modelMissing(name: string): string | undefined;
  /** This session's log file, once there is one. */
  readonly logPath: string | undefined;
  /** A step or a `!command` is under way. */
  readonly isRunning: boolean;
  setMode(mode: Mode, autoEdits?: boolean): void;
  switchModel(name: string): Promise<void>;
  setEffort(effort: Effort | 'off'): void;
  switchProfile(profile: Profile): void;
  compact(): Promise<void>;
  /** What fills the context now (`/context`); undefined when no model is set (the reason is shown). */
  inspectContext(): Promise<ContextReport | undefined>;
  /** A session of this folder by id or prefix (throws when ambiguous). */
  findSession(idOrPrefix: string): ResumedSession | undefined;
  resume(session: ResumedSession): void;
  /** Starts over: a new session with no history. */
  clear(): void;
  /** The conversation so far (what the model is sent). */
  readonly conversation: readonly ConversationMessage[];
  /** `/rewind`: the conversation goes on from an earlier part of itself. */
  rewindConversation(messages: ConversationMessage[]): void;
  /** Runs a prompt as if typed; `shown` is what the conversation shows of it. */
  run(prompt: string, shown: string, options?: PromptOptions): Promise<void>;
  exit(): void;
}
