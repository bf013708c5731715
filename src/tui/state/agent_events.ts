import { type AgentEvent, type AgentOutcome, emptyUsage } from '../../agent/events.js';
import { addSpend, ChildrenSpend, type Spend } from '../../agent/subagents/children_spend.js';
import { showsOwnEntry } from '../render/tool_facts.js';
import { formatElapsed } from '../render/tool_line.js';
import { ChildTracker } from './children.js';
import type { UiStore } from './store.js';

/** Turns the agent's events into what the UI shows. */
export class AgentEventView {
  /** Calls of conversation tools: they show as their own entries, not as tool lines. */
  private readonly quiet = new Map<string, string>();
  private runStarted = 0;
  /**
   * What was spent before this agent (earlier agents of the session: a model switch starts a new
   * one; a resumed session's log), less what the children had spent by then, which `children`
   * goes on counting.
   */
  private base: Spend = { usage: emptyUsage() };
  /** This agent's own spend: its usage events, which never include its children's. */
  private own: Spend = { usage: emptyUsage() };
  /** What the children (at any depth) spend, from their own usage events. */
  private readonly childrenSpend = new ChildrenSpend();

  /** The working folder, which tool lines show paths relative to. */
  cwd: () => string | undefined = () => undefined;

  /** The child agents, followed apart from this agent's own events. */
  readonly children: ChildTracker;

  constructor(private readonly store: UiStore) {
    this.children = new ChildTracker(store, () => this.cwd());
  }

  /** A new agent (another model): its usage and cost add to what was spent before. */
  newAgent(): void {
    const { usage, costUsd } = this.store.status;
    this.base = addSpend({ usage: { ...usage }, costUsd }, this.childrenSpend.total(), -1);
    this.own = { usage: emptyUsage() };
  }

  /** The status line's tokens and cost: before this agent, this agent's own, and its children's. */
  private showSpend(): void {
    const { usage, costUsd } = addSpend(addSpend(this.base, this.own), this.childrenSpend.total());
    this.store.setStatus({ usage, costUsd });
  }

  apply(event: AgentEvent): void {
    const store = this.store;
    switch (event.type) {
      case 'user_message':
        this.runStarted ||= Date.now();
        return;
      case 'request_start':
        store.setBusy({ since: this.runStarted || Date.now(), label: 'Thinking' });
        return;
      case 'thinking_delta':
        store.setBusy({ since: this.runStarted || Date.now(), label: 'Thinking' });
        return;
      case 'text_delta':
        store.setBusy({ since: this.runStarted || Date.now(), label: 'Writing' });
        store.appendText(event.text);
        return;
      case 'assistant_text':
        store.endText();
        return;
      case 'tool_call':
        if (showsOwnEntry(event.name)) this.quiet.set(event.id, event.name);
        else
          store.addTool({
            id: event.id,
            name: event.name,
            input: event.input,
            status: 'pending',
            cwd: this.cwd(),
          });
        return;
      case 'tool_start':
        if (!this.quiet.has(event.id))
          store.updateTool(event.id, { status: 'running', startedAt: Date.now() });
        store.setBusy({ since: this.runStarted || Date.now(), label: 'Working' });
        return;
      case 'tool_progress':
        // The latest progress shows under the running call (once it has run a second).
        if (!this.quiet.has(event.id)) store.updateTool(event.id, { progress: event.message });
        return;
      case 'tool_result': {
        const quiet = this.quiet.get(event.id);
        if (quiet) {
          this.quiet.delete(event.id);
          if (event.result.isError)
            store.add({ kind: 'notice', tone: 'error', text: `${quiet}: ${event.result.text}` });
          return;
        }
        const running = store.runningTools().find((t) => t.id === event.id);
        store.updateTool(event.id, {
          status: event.result.isError ? 'error' : 'ok',
          elapsedMs: running?.startedAt !== undefined ? Date.now() - running.startedAt : undefined,
          resultText: event.result.text,
          savedPath: event.result.savedPath,
          tail: undefined,
        });
        return;
      }
      case 'usage':
        this.own = { usage: { ...event.usage }, costUsd: event.costUsd };
        store.setStatus({ contextTokens: event.contextTokens });
        this.showSpend();
        return;
      case 'retry':
        store.add({
          kind: 'notice',
          tone: 'warn',
          text: `${event.message} — retrying in ${formatElapsed(event.delayMs)} (attempt ${event.attempt})`,
        });
        return;
      case 'mode_change':
        store.setStatus({ mode: event.mode, autoEdits: false });
        store.add({
          kind: 'notice',
          tone: 'info',
          text: event.mode === 'plan' ? 'Now in Plan mode' : 'Now in Act mode',
        });
        return;
      case 'working':
        store.add({ kind: 'working', text: event.message });
        return;
      case 'phase_report':
        store.add({ kind: 'phase', phase: event.phase, markdown: event.markdown });
        return;
      case 'report':
        store.add({ kind: 'report', title: event.title, markdown: event.markdown, path: event.path });
        return;
      case 'plan':
        store.settleText();
        store.add({ kind: 'plan', markdown: event.markdown });
        return;
      case 'question':
        store.add({ kind: 'question', question: event.question, answer: event.answer });
        return;
      case 'compaction':
        store.add({
          kind: 'notice',
          tone: 'info',
          text: `The conversation was compacted (it had ${event.before.toLocaleString('en-US')} tokens).`,
        });
        store.setStatus({ contextTokens: 0 });
        return;
      case 'notice':
        store.add({ kind: 'notice', tone: 'info', text: event.message });
        return;
      case 'brief':
        store.setStatus({ brief: event.on });
        store.add({
          kind: 'notice',
          tone: 'info',
          text: event.on ? 'Brief mode on: replies are kept short' : 'Brief mode off',
        });
        return;
      case 'user_file':
        store.add({
          kind: 'notice',
          tone: 'info',
          text: `File for you: ${event.absolutePath} (${event.bytes.toLocaleString('en-US')} bytes)${event.caption ? ` — ${event.caption}` : ''}`,
        });
        return;
      case 'notification':
        store.add({ kind: 'notice', tone: 'info', text: `Notification: ${event.title} — ${event.body}` });
        return;
      case 'error':
        store.add({ kind: 'notice', tone: 'error', text: event.message });
        return;
      case 'done':
        this.finish(event.outcome);
        return;
      case 'subagent':
        if (this.childrenSpend.take(event)) this.showSpend();
        this.children.apply(event);
        return;
    }
  }

  private finish(outcome: AgentOutcome): void {
    const store = this.store;
    store.settleAll();
    this.quiet.clear();
    const took = this.runStarted ? formatElapsed(Date.now() - this.runStarted) : '';
    this.runStarted = 0;
    store.setBusy(undefined);
    switch (outcome.kind) {
      case 'completed':
      case 'answered':
        store.add({ kind: 'result', markdown: outcome.text });
        break;
      case 'aborted':
        store.add({
          kind: 'notice',
          tone: 'warn',
          text: 'Interrupted. Tell the model what to do instead, or go on.',
        });
        break;
      case 'stopped':
      case 'max_turns':
      case 'max_tokens':
      case 'max_cost':
        store.add({ kind: 'notice', tone: 'warn', text: outcome.text });
        break;
      default:
        break;
    }
    if (took && outcome.kind !== 'error')
      store.add({
        kind: 'notice',
        tone: 'info',
        text: `${outcome.turns} request${outcome.turns === 1 ? '' : 's'} · ${took}`,
      });
  }
}
