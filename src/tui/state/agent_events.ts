import { type AgentEvent, type AgentOutcome, emptyUsage } from '../../agent/events.js';
import { addSpend, ChildrenSpend, type Spend } from '../../agent/subagents/children_spend.js';
import { showsOwnEntry } from '../render/tool_facts.js';
import { formatElapsed } from '../render/tool_line.js';
import { ChildTracker } from './children.js';
import { showEvent } from './event_entries.js';
import type { UiStore } from './store.js';

type EventOf<K extends AgentEvent['type']> = Extract<AgentEvent, { type: K }>;

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
    switch (event.type) {
      case 'user_message':
      case 'request_start':
      case 'thinking_delta':
      case 'text_delta':
      case 'assistant_text':
        this.applyTurn(event);
        return;
      case 'tool_call':
      case 'tool_start':
      case 'tool_progress':
      case 'tool_result':
        this.applyToolCall(event);
        return;
      case 'usage':
        this.own = { usage: { ...event.usage }, costUsd: event.costUsd };
        this.store.setStatus({ contextTokens: event.contextTokens });
        this.showSpend();
        return;
      case 'done':
        this.finish(event.outcome);
        return;
      case 'subagent':
        if (this.childrenSpend.take(event)) this.showSpend();
        this.children.apply(event);
        return;
      default:
        showEvent(this.store, event);
    }
  }

  /** A prompt starts the run's clock; the model's requests and text show as the busy line and the reply. */
  private applyTurn(
    event: EventOf<'user_message' | 'request_start' | 'thinking_delta' | 'text_delta' | 'assistant_text'>,
  ): void {
    switch (event.type) {
      case 'user_message':
        this.runStarted ||= Date.now();
        return;
      case 'request_start':
      case 'thinking_delta':
        this.setBusy('Thinking');
        return;
      case 'text_delta':
        this.setBusy('Writing');
        this.store.appendText(event.text);
        return;
      case 'assistant_text':
        this.store.endText();
        return;
    }
  }

  private setBusy(label: string): void {
    this.store.setBusy({ since: this.runStarted || Date.now(), label });
  }

  /** A tool call's line, from pending to its result; a conversation tool's call shows only an error. */
  private applyToolCall(event: EventOf<'tool_call' | 'tool_start' | 'tool_progress' | 'tool_result'>): void {
    const store = this.store;
    switch (event.type) {
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
        this.setBusy('Working');
        return;
      case 'tool_progress':
        // The latest progress shows under the running call (once it has run a second).
        if (!this.quiet.has(event.id)) store.updateTool(event.id, { progress: event.message });
        return;
      case 'tool_result':
        this.toolResult(event);
        return;
    }
  }

  private toolResult(event: EventOf<'tool_result'>): void {
    const store = this.store;
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
