import type { AgentEvent, AgentOutcome, SubagentTag } from '../../agent/events.js';
import { innermost } from '../../agent/subagents/children_spend.js';
import { toolTitle } from '../render/tool_line.js';
import type { ChildStatus, ChildStep, ChildView } from './items.js';
import type { UiStore } from './store.js';

/** Steps kept per child: the expanded view and Ctrl-O need the recent ones, not a whole run. */
const KEPT_STEPS = 200;
/** Characters kept of one thing said or one result's first line. */
const KEPT_CHARS = 2000;

const cut = (text: string, max = KEPT_CHARS) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const firstLine = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line !== '');
const lastLine = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .at(-1);

/** How a child's run ended, in the words of a subagent report. */
export function childStatusOf(outcome: AgentOutcome): Exclude<ChildStatus, 'running'> {
  switch (outcome.kind) {
    case 'max_turns':
    case 'max_tokens':
    case 'max_cost':
      return 'budget_exhausted';
    case 'aborted':
      return 'interrupted';
    case 'error':
      return 'failed';
    default:
      return 'completed';
  }
}

/**
 * Follows the child agents from their tagged events: a live view per running child (what it is
 * doing, its tool calls, tokens) and, when it ends, a one-line summary in the conversation. A
 * child's events never reach the parent's view: its text is not the parent's reply, its tool
 * calls are not the parent's tool lines, its usage is not the parent's (the status line adds it
 * to the session's spend apart, see AgentEventView).
 */
export class ChildTracker {
  private readonly running = new Map<string, ChildView>();
  private readonly text = new Map<string, string>();
  /** Told of each child as it ends (Ctrl-O keeps its steps). */
  onEnded: (child: ChildView) => void = () => {};

  constructor(
    private readonly store: UiStore,
    private readonly cwd: () => string | undefined,
  ) {}

  apply(wrapped: Extract<AgentEvent, { type: 'subagent' }>): void {
    const { tag, event } = innermost(wrapped);
    const known = this.running.get(tag.id);
    const child = known ?? this.start(tag);
    const next = this.step(child, event);
    if (!next) {
      if (!known) this.publish();
      return;
    }
    if (next.status === 'running') {
      this.running.set(tag.id, next);
      this.publish();
      return;
    }
    this.running.delete(tag.id);
    this.text.delete(tag.id);
    this.publish();
    this.store.add({ kind: 'child', child: next });
    this.onEnded(next);
  }

  private start(tag: SubagentTag): ChildView {
    const { id, name, type, depth } = tag;
    const child: ChildView = {
      id,
      name,
      type,
      depth,
      status: 'running',
      startedAt: Date.now(),
      toolCalls: 0,
      tokens: 0,
      steps: [],
    };
    this.running.set(id, child);
    return child;
  }

  /** The child after one of its events; undefined when the event changes nothing shown. */
  private step(child: ChildView, event: AgentEvent): ChildView | undefined {
    const withStep = (step: ChildStep) => [...child.steps, step].slice(-KEPT_STEPS);
    switch (event.type) {
      case 'user_message':
        // The first is what it was asked; later ones are notes it was sent.
        return child.prompt === undefined ? { ...child, prompt: cut(event.text) } : undefined;
      case 'text_delta': {
        const text = (this.text.get(child.id) ?? '') + event.text;
        this.text.set(child.id, text.slice(-KEPT_CHARS));
        const line = lastLine(text);
        return line ? { ...child, doing: cut(line, 200) } : undefined;
      }
      case 'assistant_text':
        this.text.delete(child.id);
        return event.text.trim()
          ? { ...child, steps: withStep({ kind: 'text', text: cut(event.text.trim()) }) }
          : undefined;
      case 'tool_call': {
        const { verb, detail } = toolTitle(event.name, event.input, this.cwd());
        const label = `${verb} ${detail}`.trim();
        return {
          ...child,
          toolCalls: child.toolCalls + 1,
          doing: label,
          steps: withStep({ kind: 'tool', id: event.id, label, status: 'running' }),
        };
      }
      case 'tool_result': {
        const result = cut(firstLine(event.result.text) ?? '', 200);
        const status = event.result.isError ? 'error' : 'ok';
        return {
          ...child,
          steps: child.steps.map((s) =>
            s.kind === 'tool' && s.id === event.id ? { ...s, status, result } : s,
          ),
        };
      }
      case 'retry':
        return { ...child, doing: cut(`retrying: ${event.message}`, 200) };
      case 'usage':
        return { ...child, tokens: event.usage.inputTokens + event.usage.outputTokens };
      case 'error':
        return {
          ...child,
          doing: cut(event.message, 200),
          steps: withStep({ kind: 'text', text: cut(event.message) }),
        };
      case 'done':
        return {
          ...child,
          status: childStatusOf(event.outcome),
          elapsedMs: Date.now() - child.startedAt,
          tokens: Math.max(child.tokens, event.outcome.usage.inputTokens + event.outcome.usage.outputTokens),
          finalText: event.outcome.text,
          doing: undefined,
        };
      default:
        return undefined;
    }
  }

  private publish(): void {
    this.store.setChildren([...this.running.values()]);
  }
}
