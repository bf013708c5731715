import type { AgentEvent } from '../../agent/events.js';
import { showsOwnEntry } from '../render/tool_facts.js';
import { toolTitle } from '../render/tool_line.js';
import type { UiStore } from '../state/store.js';
import './tool_catalogue.js';

const KEPT_RESULTS = 20;
const KEPT_RESULT_CHARS = 200_000;

/** A result as the viewer opens it: the file holding all of it when there is one, else its text. */
export interface ViewableResult {
  title: string;
  text: string;
  savedPath?: string;
  id?: string;
}

/**
 * The latest tool results in full, for Ctrl-O. Tool lines show results collapsed; the last few
 * are kept (capped) so one can be printed whole on demand, without keeping a session's worth.
 * A result saved to a file (over its budget, or a command's long output) is kept as its preview
 * and the file's path: the viewer reads the file.
 */
export class RecentResults {
  private readonly inputs = new Map<string, unknown>();
  private readonly results: ViewableResult[] = [];
  /** The result Ctrl+O printed last: the one the viewer opens. */
  private expanded?: ViewableResult;
  /** The run of read-only calls last opened by Ctrl+O (its calls' lines print once). */
  private openedReads: string[] = [];

  constructor(
    private readonly store: UiStore,
    private readonly cwd: () => string | undefined = () => undefined,
  ) {}

  observe(event: AgentEvent): void {
    if (event.type === 'tool_call') this.inputs.set(event.id, event.input);
    if (event.type !== 'tool_result') return;
    const input = this.inputs.get(event.id);
    this.inputs.delete(event.id);
    if (showsOwnEntry(event.name)) return;
    const { text, savedPath } = event.result;
    const { verb, detail } = toolTitle(event.name, input, this.cwd());
    this.keep(`${verb} ${detail}`, text, event.id, savedPath);
  }

  /** Keeps something Ctrl-O can print in full, as the latest (a child agent's run, when it ends). */
  keep(title: string, text: string, id?: string, savedPath?: string): void {
    this.results.push({
      title,
      text: text.slice(0, KEPT_RESULT_CHARS),
      id,
      ...(savedPath ? { savedPath } : {}),
    });
    if (this.results.length > KEPT_RESULTS) this.results.shift();
  }

  /** The result the viewer opens: the one Ctrl+O printed last, else the latest. */
  viewable(): ViewableResult | undefined {
    const result = this.expanded ?? this.results.at(-1);
    if (!result) this.store.setHint('No tool result to view.');
    return result;
  }

  /** Prints the latest result (or child agent's run) not yet shown in full. */
  expandLatest(): void {
    if (this.openReads()) return;
    const latest = this.results.pop();
    if (!latest) {
      this.store.setHint('No tool result to expand.');
      return;
    }
    this.expanded = latest;
    this.store.add({ kind: 'expanded', title: latest.title, text: latest.text, savedPath: latest.savedPath });
    this.store.flush();
  }

  /**
   * When the latest result belongs to read-only calls printed as one line, Ctrl+O first prints
   * that line opened: each call with its own line and preview.
   */
  private openReads(): boolean {
    const ids = this.store.lastReads;
    const latest = this.results.at(-1)?.id;
    if (!latest || !ids.includes(latest) || this.openedReads === ids) return false;
    const tools = this.store.printedReads();
    if (!tools) return false;
    this.openedReads = ids;
    this.store.add({ kind: 'reads', tools, open: true });
    this.store.flush();
    return true;
  }
}
