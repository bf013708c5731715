import type { Mode } from '../../config/types.js';
import type { UiStore } from '../state/store.js';
import type { ViewableResult } from './results.js';

/** What the UI asks of the session behind it. */
export interface SessionControls {
  readonly store: UiStore;
  /** The working folder, for completing `@paths`. */
  readonly cwd: string;
  /** The custom commands' and workflows' names, for completing `/name`. */
  readonly commandNames?: readonly string[];
  submit(text: string, shown?: string): Promise<void>;
  /** Esc: stops what runs; false when nothing did. */
  interrupt(): boolean;
  exit(): void;
  /** Shift+Tab: Act → Act with edits approved → Plan → Act. */
  cycleMode(): void;
  setMode(mode: Mode, autoEdits?: boolean): void;
  /** Ctrl+O: prints the latest tool result in full. */
  expandLatest(): void;
  /** The result the viewer opens (the one Ctrl+O printed last); undefined, with a notice, when none. */
  viewableResult(): ViewableResult | undefined;
  /** Ctrl+B: sends the running commands to the background; returns how many. */
  detachCommands(): number;
}

/**
 * The session as the first frame has it: the prompt is up and takes keys while the runtime, the
 * agent and the model load behind it. What is sent meanwhile is shown as queued and goes to the
 * session, in order, once it is ready; from then on everything goes straight to it.
 */
export class StartingSession implements SessionControls {
  private session?: SessionControls;
  private readonly waiting: Array<{ text: string; shown?: string }> = [];
  private left = false;
  /** A mode chosen with Shift+Tab before the session was ready. */
  private chosen?: { mode: Mode; autoEdits: boolean };

  constructor(
    readonly store: UiStore,
    private readonly folder: string,
  ) {}

  get cwd(): string {
    return this.session?.cwd ?? this.folder;
  }

  get commandNames(): readonly string[] {
    return this.session?.commandNames ?? [];
  }

  /** The user left before the session was ready: it must not start. */
  get exited(): boolean {
    return this.left;
  }

  /** The session is ready: the first prompt (if any), then what was sent while it loaded. */
  attach(session: SessionControls, firstPrompt?: string): void {
    this.session = session;
    if (this.chosen) session.setMode(this.chosen.mode, this.chosen.autoEdits);
    this.store.setQueued([]);
    const sent = firstPrompt?.trim() ? [{ text: firstPrompt }, ...this.waiting] : [...this.waiting];
    this.waiting.length = 0;
    for (const { text, shown } of sent) void session.submit(text, shown);
  }

  async submit(text: string, shown?: string): Promise<void> {
    if (this.session) return this.session.submit(text, shown);
    if (!text.trim()) return;
    this.waiting.push({ text, shown });
    this.store.setQueued(this.waiting.map((w) => w.shown ?? w.text));
  }

  interrupt(): boolean {
    if (this.session) return this.session.interrupt();
    const dropped = this.waiting.length > 0;
    this.waiting.length = 0;
    this.store.setQueued([]);
    return dropped;
  }

  exit(): void {
    if (this.session) {
      this.session.exit();
      return;
    }
    this.left = true;
    this.store.setExiting();
  }

  cycleMode(): void {
    if (this.session) {
      this.session.cycleMode();
      return;
    }
    const { mode, autoEdits } = this.store.status;
    this.setMode(mode === 'plan' ? 'act' : autoEdits ? 'plan' : 'act', mode === 'act' && !autoEdits);
  }

  setMode(mode: Mode, autoEdits = false): void {
    if (this.session) {
      this.session.setMode(mode, autoEdits);
      return;
    }
    this.chosen = { mode, autoEdits };
    this.store.setStatus({ mode, autoEdits });
    this.store.flush();
  }

  expandLatest(): void {
    if (this.session) this.session.expandLatest();
    else this.store.setHint('No tool result to expand.');
  }

  viewableResult(): ViewableResult | undefined {
    if (this.session) return this.session.viewableResult();
    this.store.setHint('No tool result to view.');
    return undefined;
  }

  detachCommands(): number {
    return this.session?.detachCommands() ?? 0;
  }
}
