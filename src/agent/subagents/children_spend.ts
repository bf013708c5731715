import { type AgentEvent, emptyUsage, type SubagentTag, type Usage } from '../events.js';

type ChildEvent = Extract<AgentEvent, { type: 'subagent' }>;

/** The innermost child of an event: a grandchild's events come wrapped in its parent's tag. */
export function innermost(event: ChildEvent): { tag: SubagentTag; event: AgentEvent } {
  let tag = event.child;
  let inner = event.event;
  while (inner.type === 'subagent') {
    tag = inner.child;
    inner = inner.event;
  }
  return { tag, event: inner };
}

export interface Spend {
  usage: Usage;
  /** Dollars at the models' known prices; undefined when none of them is known. */
  costUsd?: number;
}

/** `total` plus `more` (minus, with `sign` -1); the cost is undefined only when neither knows it. */
export function addSpend(total: Spend, more: Spend, sign: 1 | -1 = 1): Spend {
  const cost =
    total.costUsd === undefined && more.costUsd === undefined
      ? undefined
      : (total.costUsd ?? 0) + sign * (more.costUsd ?? 0);
  const sum = (key: keyof Usage) => total.usage[key] + sign * more.usage[key];
  return {
    usage: {
      inputTokens: sum('inputTokens'),
      outputTokens: sum('outputTokens'),
      cachedInputTokens: sum('cachedInputTokens'),
      cacheWriteTokens: sum('cacheWriteTokens'),
    },
    ...(cost === undefined ? {} : { costUsd: cost }),
  };
}

/**
 * What an agent's children (and theirs, at any depth) have spent, from their tagged events. An
 * agent's own usage never includes its children's, so this adds to it without counting twice.
 * A child's `usage` events carry its running total for one run; its `done` closes that run (a
 * resumed child starts a new one under the same id).
 */
export class ChildrenSpend {
  private ended: Spend = { usage: emptyUsage() };
  private readonly running = new Map<string, Spend>();

  /** Takes a child's event; true when the children's spend changed. */
  take(wrapped: ChildEvent): boolean {
    const { tag, event } = innermost(wrapped);
    if (event.type === 'usage') {
      this.running.set(tag.id, { usage: event.usage, costUsd: event.costUsd });
      return true;
    }
    if (event.type === 'done') {
      this.running.delete(tag.id);
      this.ended = addSpend(this.ended, { usage: event.outcome.usage, costUsd: event.outcome.costUsd });
      return true;
    }
    return false;
  }

  total(): Spend {
    return [...this.running.values()].reduce((sum, child) => addSpend(sum, child), this.ended);
  }
}
