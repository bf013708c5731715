import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent, AgentOutcome, SubagentTag } from '../../src/agent/events.js';
import { AgentEventView } from '../../src/tui/state/agent_events.js';
import { freshStatus, UiStore } from '../../src/tui/state/store.js';
import { childEvents, childServers, FINDER, tagged } from './support/child_events.js';

afterEach(async () => {
  for (const server of childServers.splice(0)) await server.close();
});

const FINDER_TAG: SubagentTag = { id: 'child-1', name: 'finder', type: 'explore', depth: 1 };
const CHECKER_TAG: SubagentTag = { id: 'child-2', name: 'checker', type: 'general', depth: 1 };
const GRANDCHILD_TAG: SubagentTag = { id: 'child-3', name: 'reader', type: 'explore', depth: 2 };

/** The user's agent: one request of 500 in / 50 out, then its answer. */
const PARENT_TURNS = [{ text: 'Both children are done.', usage: { inputTokens: 500, outputTokens: 50 } }];

function viewOf() {
  const store = new UiStore(freshStatus());
  const view = new AgentEventView(store);
  const status = () => {
    store.flush();
    return store.getSnapshot().status;
  };
  return { view, status };
}

const outcomeOf = (events: AgentEvent[]): AgentOutcome => {
  const done = events.findLast((e) => e.type === 'done');
  if (done?.type !== 'done') throw new Error('the run has no done event');
  return done.outcome;
};

/** A grandchild's events, as its parent child passes them on: wrapped twice. */
const wrappedTwice = (events: AgentEvent[]): AgentEvent[] =>
  tagged(CHECKER_TAG, tagged(GRANDCHILD_TAG, events));

describe("the status line's tokens and cost", () => {
  it("add every child's and grandchild's spend to the agent's own, counting each request once", async () => {
    const parent = await childEvents(PARENT_TURNS, 'Send two children.');
    const finder = await childEvents(FINDER);
    const reader = await childEvents(FINDER.slice(1), 'Read a.ts.');
    const own = outcomeOf(parent);
    const { view, status } = viewOf();

    // The parent's events with the children's in the middle, before its own usage and end.
    const middle = parent.findIndex((e) => e.type === 'usage');
    for (const event of parent.slice(0, middle)) view.apply(event);
    const children = tagged(FINDER_TAG, finder);
    const grandchild = wrappedTwice(reader);
    for (let i = 0; i < Math.max(children.length, grandchild.length); i++) {
      if (i < children.length) view.apply(children[i]);
      if (i < grandchild.length) view.apply(grandchild[i]);
    }
    // Children's running totals (usage after each request) and their ends: 3 + 2 requests, once each.
    expect(status().usage).toMatchObject({ inputTokens: 5000, outputTokens: 1000 });
    for (const event of parent.slice(middle)) view.apply(event);

    expect(status().usage).toEqual({
      inputTokens: 500 + 3000 + 2000,
      outputTokens: 50 + 600 + 400,
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
    });
    const costs = [own, outcomeOf(finder), outcomeOf(reader)].map((o) => o.costUsd ?? Number.NaN);
    expect(costs.every((cost) => cost > 0)).toBe(true);
    expect(status().costUsd).toBeCloseTo(costs[0] + costs[1] + costs[2], 12);
    // The context is the agent's own conversation: the children's tokens are not in it.
    expect(status().contextTokens).toBe(550);
  });

  it('shows a running child’s spend as it goes, and a child resumed under its id adds its new run', async () => {
    const first = tagged(FINDER_TAG, await childEvents(FINDER));
    const again = tagged(FINDER_TAG, await childEvents(FINDER.slice(2), 'Go on.'));
    const { view, status } = viewOf();
    const secondUsage = first.filter((e) => e.type === 'subagent' && e.event.type === 'usage')[1];
    for (const event of first.slice(0, first.indexOf(secondUsage) + 1)) view.apply(event);
    expect(status().usage).toMatchObject({ inputTokens: 2000, outputTokens: 400 });
    for (const event of first.slice(first.indexOf(secondUsage) + 1)) view.apply(event);
    for (const event of again) view.apply(event);
    expect(status().usage).toMatchObject({ inputTokens: 4000, outputTokens: 800 });
  });

  it('keep what children spent across a new agent (a model switch), without counting it again', async () => {
    const parent = await childEvents(PARENT_TURNS, 'Send a child.');
    const child = tagged(FINDER_TAG, await childEvents(FINDER));
    const { view, status } = viewOf();
    for (const event of parent) view.apply(event);
    const half = child.findIndex((e) => e.type === 'subagent' && e.event.type === 'usage');
    for (const event of child.slice(0, half + 1)) view.apply(event);
    expect(status().usage).toMatchObject({ inputTokens: 1500, outputTokens: 250 });
    // A model switch while the child still runs: the next agent's spend goes on from here.
    view.newAgent();
    for (const event of child.slice(half + 1)) view.apply(event);
    expect(status().usage).toMatchObject({ inputTokens: 3500, outputTokens: 650 });
    for (const event of parent) view.apply(event);
    expect(status().usage).toMatchObject({ inputTokens: 4000, outputTokens: 700 });
  });
});
