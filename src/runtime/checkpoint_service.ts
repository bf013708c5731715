import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import type { ConversationMessage } from '../agent/model_stream.js';
import { CheckpointStore, type ConversationMark } from '../checkpoints/index.js';
import type { CheckpointSettings } from '../config/checkpoint_settings.js';
import { findOnPath } from '../util/find_on_path.js';

export interface CheckpointServiceOptions {
  settings: CheckpointSettings;
  documentsRoot: string;
  sessionDir: string;
  sessionId: string;
  env: NodeJS.ProcessEnv;
  /** The runtime's start-up warnings: git missing is said there, once. */
  warnings: string[];
}

/**
 * A runtime's checkpoints: one store per workspace the session works in (the home workspace, or
 * a worktree it entered). A prompt's start is marked (no file is read); an edit saves the files
 * it names before it runs; a call that may change files no declaration names (a command) takes a
 * snapshot of the tree first. A checkpoint that cannot be taken never stops the work; the reason
 * is said once.
 */
export class CheckpointService {
  /** Why checkpoints are off; undefined while they are on. */
  readonly off?: string;
  private readonly stores = new Map<string, CheckpointStore>();
  /** Reasons already told, by workspace: a failing checkpoint is said once, not at every call. */
  private readonly told = new Set<string>();
  /**
   * The prompt's checkpoint while it is being taken: the model's request does not wait for it,
   * but a call that may change files (and its own checkpoint) does.
   */
  private turnTaking: Promise<unknown> = Promise.resolve();
  /** git's environment: the runtime's over lathe's own, so a runtime given only a few variables still finds git. */
  private readonly env: NodeJS.ProcessEnv;

  constructor(private readonly options: CheckpointServiceOptions) {
    this.env = { ...process.env, ...options.env };
    if (!options.settings.enabled) this.off = 'checkpoints are off in the settings (checkpoints.enabled)';
    else if (!findOnPath(['git'], this.env)) {
      this.off = 'git is not on PATH';
      options.warnings.push(
        'checkpoints are off: git is not on PATH (install git for /undo, /rewind and lathe checkpoints)',
      );
    }
  }

  get sessionId(): string {
    return this.options.sessionId;
  }

  /** The store of a workspace; undefined while checkpoints are off. */
  store(workspace: string): CheckpointStore | undefined {
    if (this.off) return undefined;
    const root = realWorkspace(workspace);
    let store = this.stores.get(root);
    if (!store) {
      const { settings, documentsRoot, sessionDir } = this.options;
      store = new CheckpointStore({
        workspace: root,
        documentsRoot,
        keep: settings.keep,
        maxAgeDays: settings.maxAgeDays,
        exclude: settings.exclude,
        skipFolders: [documentsRoot, sessionDir].map(realWorkspace),
        env: this.env,
      });
      this.stores.set(root, store);
    }
    return store;
  }

  /**
   * A checkpoint before a call that may change files (`label` names the call): of the files it
   * names (`files`, absolute), else of the whole tree. Returns a line for the call's result when
   * none could be taken, the first time for each reason.
   */
  async beforeCall(workspace: string, label: string, files?: readonly string[]): Promise<string | undefined> {
    const store = this.store(workspace);
    if (!store) return undefined;
    await this.turnTaking;
    try {
      const meta = { kind: 'call' as const, label, session: this.options.sessionId };
      if (files && !store.namesFolder(files)) await store.saveFiles(meta, files);
      else await store.take(meta);
      return undefined;
    } catch (error) {
      return this.tell(workspace, error, '/undo cannot take this call back');
    }
  }

  /**
   * The mark of a prompt's start, with where the conversation stood, for /undo and /rewind,
   * written once `startAfter` settles (no file is read: the checkpoints of the calls that follow
   * hold what they change). Calls that may change files wait for it (`beforeCall`), so it comes
   * before theirs.
   */
  beforeTurn(
    workspace: string,
    prompt: string,
    conversation?: Omit<ConversationMark, 'session'>,
    startAfter: Promise<unknown> = Promise.resolve(),
  ): Promise<string | undefined> {
    const take = () => this.takeTurn(workspace, prompt, conversation);
    const taking = startAfter.then(take, take);
    this.turnTaking = taking;
    return taking;
  }

  /** Resolves when no checkpoint is being taken (the runtime waits for it before it ends). */
  settled(): Promise<unknown> {
    return this.turnTaking;
  }

  /** Ends the stores' snapshot threads, once no checkpoint is being taken. */
  async close(): Promise<void> {
    await this.turnTaking.catch(() => undefined);
    await Promise.all([...this.stores.values()].map((store) => store.close()));
  }

  private async takeTurn(
    workspace: string,
    prompt: string,
    conversation?: Omit<ConversationMark, 'session'>,
  ): Promise<string | undefined> {
    const store = this.store(workspace);
    if (!store) return undefined;
    const session = this.options.sessionId;
    try {
      await store.mark({
        kind: 'turn',
        label: prompt.trim().split('\n')[0] || '(empty prompt)',
        session,
        ...(conversation ? { conversation: { ...conversation, session } } : {}),
      });
      return undefined;
    } catch (error) {
      return this.tell(workspace, error, '/undo cannot take this prompt back');
    }
  }

  private tell(workspace: string, error: unknown, consequence: string): string | undefined {
    const reason = (error as Error)?.message ?? String(error);
    const key = `${workspace}\0${reason}`;
    if (this.told.has(key)) return undefined;
    this.told.add(key);
    return `No checkpoint was taken: ${reason}; ${consequence}.`;
  }
}

/** A folder's real path (checkpoints of one folder reached by two paths are one repository). */
function realWorkspace(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Where a conversation stands: its length and a hash of its last message. */
export function conversationMark(history: readonly ConversationMessage[]): Omit<ConversationMark, 'session'> {
  const last = history.at(-1);
  const anchor = last ? createHash('sha256').update(JSON.stringify(last)).digest('hex').slice(0, 16) : '';
  return { messages: history.length, anchor };
}

/**
 * The conversation as it was at a turn's checkpoint, or why it cannot be had: the checkpoint is of
 * another session, or the conversation was compacted (or rewound) past it since.
 */
export function conversationAt(
  history: readonly ConversationMessage[],
  mark: ConversationMark | undefined,
  sessionId: string,
): { messages: ConversationMessage[] } | { reason: string } {
  if (!mark) return { reason: 'this checkpoint was not taken before a prompt' };
  if (mark.session !== sessionId) return { reason: 'this checkpoint belongs to another session' };
  const kept = history.slice(0, mark.messages);
  if (kept.length !== mark.messages || conversationMark(kept).anchor !== mark.anchor)
    return { reason: 'the conversation was compacted since this checkpoint' };
  return { messages: kept };
}
