import { emptyUsage, type Usage } from '../../agent/events.js';
import type { Mode } from '../../config/types.js';
import type { ChildView, LiveEntry, TodoItem, ToolLine, TranscriptEntry, TranscriptItem } from './items.js';
import type { Prompt, PromptRequest } from './prompts.js';
import { isFinished, readRun } from './read_runs.js';
import { StreamBlocks } from './stream_blocks.js';

export interface StatusInfo {
  model?: string;
  mode: Mode;
  /** Act mode that approves edits inside the workspace without asking. */
  autoEdits: boolean;
  profile: string;
  contextTokens: number;
  contextWindow?: number;
  usage: Usage;
  costUsd?: number;
  /** The prompt is up and the session still loading: the model and context are not known yet. */
  starting?: boolean;
  /** Concise-output mode is on (the brief tool). */
  brief?: boolean;
}

/** The status of a run that has spent nothing yet, in Act mode and Standard unless told otherwise. */
export function freshStatus(
  run: { model?: string; mode?: Mode; profile?: string; starting?: boolean } = {},
): StatusInfo {
  const { model, mode = 'act', profile = 'standard', starting } = run;
  return {
    model,
    mode,
    autoEdits: false,
    profile,
    contextTokens: 0,
    usage: emptyUsage(),
    ...(starting ? { starting } : {}),
  };
}

/** Everything the UI shows, as one immutable value per frame. */
export interface Snapshot {
  /** Changes when a new <Static> batch starts; see `publish`. */
  staticKey: number;
  staticItems: TranscriptItem[];
  live: LiveEntry[];
  status: StatusInfo;
  prompt?: Prompt;
  queued: string[];
  busy?: { since: number; label: string };
  hint?: string;
  todo?: TodoItem[];
  /** The child agents running now, in the order they started. */
  children: ChildView[];
  /** Running children show their latest steps under their line (Ctrl+T). */
  childrenOpen: boolean;
  exiting: boolean;
}

/** At most one frame per this many ms, however fast tokens arrive. */
const FRAME_MS = 16;
/** How long a status-line notice stays, unless something replaces or clears it first. */
export const HINT_MS = 4000;
/** Printed items are dropped from memory once a batch holds this many. */
const STATIC_BATCH = 64;

/**
 * The UI state outside React. Agent events, key presses and commands change it; React reads it
 * through `subscribe`/`getSnapshot`. Changes are coalesced into frames, so a burst of tokens
 * costs one render. Finished entries are committed in order: a live entry (a running tool, the
 * reply being streamed) holds back everything after it, so the printed order is the real one.
 */
export class UiStore {
  private snapshot: Snapshot;
  private readonly listeners = new Set<() => void>();
  private timer: NodeJS.Timeout | undefined;
  private hintTimer: NodeJS.Timeout | undefined;
  private nextKey = 1;
  private nextPromptId = 1;
  private unpublished: TranscriptItem[] = [];
  private live: LiveEntry[] = [];
  private stream: StreamBlocks | undefined;
  private prompts: Prompt[] = [];
  private draft: Omit<Snapshot, 'staticKey' | 'staticItems' | 'live' | 'prompt'>;
  private held = false;

  constructor(status: StatusInfo) {
    this.draft = { status, queued: [], children: [], childrenOpen: false, exiting: false };
    this.snapshot = { staticKey: 0, staticItems: [], live: [], ...this.draft };
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): Snapshot => this.snapshot;

  /** Publishes pending changes now (input feedback should not wait for a frame). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.held) return;
    const fresh = this.unpublished;
    this.unpublished = [];
    let { staticKey, staticItems } = this.snapshot;
    if (fresh.length > 0) {
      // Everything already in the batch was printed by the previous frame; a new batch (a new
      // <Static> key) keeps only what is new, so printed entries leave memory.
      if (staticItems.length + fresh.length > STATIC_BATCH) {
        staticKey++;
        staticItems = fresh;
      } else staticItems = [...staticItems, ...fresh];
    }
    this.snapshot = { ...this.draft, staticKey, staticItems, live: [...this.live], prompt: this.prompts[0] };
    for (const listener of this.listeners) listener();
  }

  /**
   * While a full-screen view covers the UI, changes wait and nothing is drawn; they are all
   * published at once when it closes.
   */
  hold(held: boolean): void {
    this.held = held;
    if (!held) this.flush();
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => this.flush(), FRAME_MS);
  }

  private change(patch: Partial<typeof this.draft>): void {
    this.draft = { ...this.draft, ...patch };
    this.schedule();
  }

  // ── The conversation ──────────────────────────────────────────────────────────────

  /** Prints an entry after everything live before it. */
  add(entry: TranscriptEntry): void {
    if (this.live.length === 0) this.unpublished.push({ ...entry, key: this.nextKey++ });
    else {
      this.live.push({ kind: 'done', entry });
      this.commitReady();
    }
    this.schedule();
  }

  /** Prints an entry just above a live tool line (what an approval is about), or at the end. */
  addBefore(toolId: string, entry: TranscriptEntry): void {
    const index = this.live.findIndex((e) => e.kind === 'tool' && e.tool.id === toolId);
    if (index < 0) this.add(entry);
    else {
      this.live.splice(index, 0, { kind: 'done', entry });
      this.commitReady();
      this.schedule();
    }
  }

  appendText(delta: string): void {
    if (!this.stream) {
      this.stream = new StreamBlocks();
      this.live.push({ kind: 'stream', text: '' });
      this.commitReady();
    }
    this.stream.append(delta);
    const finished = this.stream.takeFinished();
    const index = this.live.findIndex((e) => e.kind === 'stream');
    if (finished) {
      // Finished blocks go before the open one; printed at once when nothing is live above.
      this.live.splice(index, 0, {
        kind: 'done',
        entry: { kind: 'assistant', markdown: finished.trimEnd() },
      });
      this.live[index + 1] = { kind: 'stream', text: this.stream.open, fence: this.stream.openFence };
      this.commitReady();
    } else this.live[index] = { kind: 'stream', text: this.stream.open, fence: this.stream.openFence };
    this.schedule();
  }

  /** The reply is complete: what is left of it is printed. */
  endText(): void {
    if (!this.stream) return;
    const rest = this.stream.takeAll().trim();
    this.stream = undefined;
    const index = this.live.findIndex((e) => e.kind === 'stream');
    if (rest) this.live[index] = { kind: 'done', entry: { kind: 'assistant', markdown: rest } };
    else this.live.splice(index, 1);
    this.commitReady();
    this.schedule();
  }

  addTool(tool: ToolLine): void {
    this.live.push({ kind: 'tool', tool });
    this.commitReady();
    this.schedule();
  }

  updateTool(id: string, patch: Partial<ToolLine>): ToolLine | undefined {
    const index = this.live.findIndex((e) => e.kind === 'tool' && e.tool.id === id);
    if (index < 0) return undefined;
    const entry = this.live[index] as Extract<LiveEntry, { kind: 'tool' }>;
    const tool = { ...entry.tool, ...patch };
    const finished = isFinished(tool);
    this.live[index] = finished ? { kind: 'done', entry: { kind: 'tool', tool } } : { kind: 'tool', tool };
    if (finished) this.commitReady();
    this.schedule();
    return tool;
  }

  /** Drops a live tool line (a conversation tool that shows as its own entry). */
  removeTool(id: string): void {
    const index = this.live.findIndex((e) => e.kind === 'tool' && e.tool.id === id);
    if (index >= 0) this.live.splice(index, 1);
    this.commitReady();
    this.schedule();
  }

  runningTools(): ToolLine[] {
    return this.live.flatMap((e) => (e.kind === 'tool' && e.tool.status === 'running' ? [e.tool] : []));
  }

  /** Before a prompt: what was said so far is printed, so the prompt shows under it. */
  settleText(): void {
    this.endText();
  }

  /** The run ended: anything still live is printed, unfinished calls as cancelled. */
  settleAll(): void {
    this.endText();
    this.live = this.live.map((e) =>
      e.kind === 'tool'
        ? { kind: 'done', entry: { kind: 'tool', tool: { ...e.tool, status: 'cancelled' } } }
        : e,
    );
    this.live = this.live.filter((e) => e.kind !== 'shell');
    this.commitReady(true);
    this.schedule();
  }

  setLiveShell(shell: Extract<LiveEntry, { kind: 'shell' }> | undefined): void {
    this.live = this.live.filter((e) => e.kind !== 'shell');
    if (shell) this.live.push(shell);
    this.schedule();
  }

  /**
   * Prints the finished entries at the head of what is live. Read-only calls in a row wait for
   * the row to end (something else follows, or the run ends) and print as one line.
   */
  private commitReady(ended = false): void {
    while (this.live.length > 0 && this.live[0].kind === 'done') {
      const run = readRun(this.live, 0);
      if (run.length > 1) {
        if (!run.every(isFinished) || (run.length === this.live.length && !ended)) return;
        this.live.splice(0, run.length);
        this.lastReads = run.map((t) => t.id);
        this.readsPrinted = run;
        this.unpublished.push({ kind: 'reads', tools: run, key: this.nextKey++ });
        continue;
      }
      if (run.length === 1 && this.live.length === 1 && !ended) return;
      const head = this.live.shift() as Extract<LiveEntry, { kind: 'done' }>;
      this.unpublished.push({ ...head.entry, key: this.nextKey++ });
    }
  }

  /** The ids of the latest read-only calls printed as one line. */
  lastReads: string[] = [];
  private readsPrinted: ToolLine[] | undefined;

  /** The latest read-only calls printed as one line, as they ended. */
  printedReads(): ToolLine[] | undefined {
    return this.readsPrinted;
  }

  // ── Around the conversation ──────────────────────────────────────────────────────

  setStatus(patch: Partial<StatusInfo>): void {
    this.change({ status: { ...this.draft.status, ...patch } });
  }

  get status(): StatusInfo {
    return this.draft.status;
  }

  get hint(): string | undefined {
    return this.draft.hint;
  }

  get todo(): TodoItem[] | undefined {
    return this.draft.todo;
  }

  setBusy(busy: Snapshot['busy']): void {
    this.change({ busy });
  }

  /**
   * A short notice in the status line ("No command is running"). It never outlives what it is
   * about: it clears after `ms`, when another replaces it, or with `setHint(undefined)` (the next
   * prompt clears it too).
   */
  setHint(hint: string | undefined, ms = HINT_MS): void {
    if (this.hintTimer) clearTimeout(this.hintTimer);
    this.hintTimer = undefined;
    if (hint !== undefined) {
      this.hintTimer = setTimeout(() => this.setHint(undefined), ms);
      this.hintTimer.unref?.();
    }
    this.change({ hint });
    this.flush();
  }

  setQueued(queued: string[]): void {
    this.change({ queued: [...queued] });
  }

  setTodo(todo: TodoItem[] | undefined): void {
    this.change({ todo });
  }

  /**
   * The running children, shown in a panel of their own under what is live: a child that runs
   * on in the background never holds back the conversation, as a live entry would.
   */
  setChildren(children: ChildView[]): void {
    this.change({ children });
  }

  /** Shows or hides the latest steps of the running children; says which. */
  toggleChildren(): void {
    const open = !this.draft.childrenOpen;
    this.change({ childrenOpen: open });
    const none = this.draft.children.length === 0 ? ' (none is running now)' : '';
    this.setHint(
      open ? `Child agents show their latest steps${none}` : `Child agents show one line each${none}`,
    );
  }

  setExiting(): void {
    if (this.hintTimer) clearTimeout(this.hintTimer);
    // Leaving ends a hold: the UI exits (and closes a view that is open) even behind one.
    this.held = false;
    this.change({ exiting: true, hint: undefined });
    this.flush();
  }

  /** Shows a prompt (after those already waiting) and resolves with the answer; `signal` takes it away unanswered. */
  ask<T>(request: PromptRequest<T>, signal?: AbortSignal): Promise<T> {
    return new Promise<T>((resolve) => {
      const id = this.nextPromptId++;
      const { cancelValue, ...data } = request;
      let answered = false;
      const answer = (value: T) => {
        if (answered) return;
        answered = true;
        this.prompts = this.prompts.filter((p) => p.id !== id);
        this.flush();
        resolve(value);
      };
      const prompt = { ...data, id, resolve: answer, cancel: () => answer(cancelValue) } as unknown as Prompt;
      this.prompts.push(prompt);
      this.flush();
      if (signal?.aborted) answer(cancelValue);
      signal?.addEventListener('abort', () => answer(cancelValue), { once: true });
    });
  }

  /** Answers every open prompt with its cancel value (an interrupt, the exit). */
  cancelPrompts(): void {
    for (const prompt of [...this.prompts]) prompt.cancel();
  }
}
