import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/events.js';
import { renderEntry } from '../../src/tui/render/entries.js';
import { plainText } from '../../src/tui/render/style.js';
import '../../src/tui/session/tool_catalogue.js';
import { childTranscript } from '../../src/tui/render/child_line.js';
import { RecentResults } from '../../src/tui/session/results.js';
import { AgentEventView } from '../../src/tui/state/agent_events.js';
import { freshStatus, UiStore } from '../../src/tui/state/store.js';
import { childEvents, childServers, FINDER, tagged } from './support/child_events.js';

afterEach(async () => {
  for (const server of childServers.splice(0)) await server.close();
});

const FINDER_TAG = { id: 'child-1', name: 'finder', type: 'explore', depth: 1 };

function viewOf() {
  const store = new UiStore(freshStatus());
  const view = new AgentEventView(store);
  const snapshot = () => {
    store.flush();
    return store.getSnapshot();
  };
  return { store, view, snapshot };
}

const shown = (store: UiStore) => {
  store.flush();
  const { staticItems, live } = store.getSnapshot();
  const entries = [...staticItems, ...live.flatMap((e) => (e.kind === 'done' ? [e.entry] : []))];
  return entries.flatMap((entry) => renderEntry(entry, 100).map(plainText));
};

describe('a child agent in the terminal UI', () => {
  it('gets a live line of its own — name, type, what it does, tool calls, tokens — never the parent’s reply or tool lines', async () => {
    const events = tagged(FINDER_TAG, await childEvents(FINDER));
    const { store, view, snapshot } = viewOf();
    view.apply({ type: 'tool_call', id: 'p1', name: 'read_file', input: { path: 'notes.md' } });
    view.apply({ type: 'tool_start', id: 'p1', name: 'read_file' });
    const lastCall = events.findLastIndex((e) => e.type === 'subagent' && e.event.type === 'tool_call');
    for (const event of events.slice(0, lastCall)) view.apply(event);

    const [child] = snapshot().children;
    expect(child).toMatchObject({ name: 'finder', type: 'explore', status: 'running', toolCalls: 2 });
    expect(child.doing).toBe('Search /answer/');
    expect(child.tokens).toBe(2400);
    // The parent has its own tool line and nothing else: no child text, no child tool line.
    expect(snapshot().live).toMatchObject([{ kind: 'tool', tool: { id: 'p1', name: 'read_file' } }]);
    expect(snapshot().live).toHaveLength(1);
    expect(shown(store).join('\n')).not.toContain('Reading a.ts first.');
    // The status line counts the child's two requests so far; the parent has made none.
    expect(snapshot().status.usage.inputTokens).toBe(2000);
  });

  it('collapses to a one-line summary when it ends: status, tool calls, tokens, time', async () => {
    const events = tagged(FINDER_TAG, await childEvents(FINDER));
    const { store, view, snapshot } = viewOf();
    for (const event of events) view.apply(event);
    expect(snapshot().children).toEqual([]);
    const lines = shown(store);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^✓ finder \(explore\) · completed · 3 tool calls · 3\.6k tokens · \d/);
  });

  it('follows children whose events interleave, each on its own line with its own counts', async () => {
    const one = tagged(FINDER_TAG, await childEvents(FINDER));
    const other = tagged(
      { id: 'child-2', name: 'checker', type: 'general', depth: 1 },
      await childEvents(
        [{ toolCalls: [{ name: 'attempt_completion', input: { result: 'fine' } }] }],
        'Check b.ts',
      ),
    );
    const { store, view, snapshot } = viewOf();
    const longest = Math.max(one.length, other.length);
    // Both run at once: everything but their ends, alternating.
    for (let i = 0; i < longest; i++) {
      if (i < one.length - 1) view.apply(one[i]);
      if (i < other.length - 1) view.apply(other[i]);
    }
    expect(snapshot().children.map((c) => `${c.name}:${c.toolCalls}`)).toEqual(['finder:3', 'checker:1']);
    view.apply(other.at(-1) as AgentEvent);
    expect(snapshot().children.map((c) => c.name)).toEqual(['finder']);
    view.apply(one.at(-1) as AgentEvent);
    expect(shown(store).map((line) => line.split(' · ').slice(0, 3).join(' · '))).toEqual([
      '✓ checker (general) · completed · 1 tool call',
      '✓ finder (explore) · completed · 3 tool calls',
    ]);
  });

  it('shows a grandchild, whose events come wrapped in its parent child’s, indented under it', () => {
    const { view, snapshot } = viewOf();
    const grandchild = { id: 'child-1.1', name: 'digger', type: 'explore', depth: 2 };
    view.apply({
      type: 'subagent',
      child: FINDER_TAG,
      event: {
        type: 'subagent',
        child: grandchild,
        event: { type: 'tool_call', id: 't', name: 'glob', input: { pattern: '*.ts' } },
      },
    });
    expect(snapshot().children).toMatchObject([{ id: 'child-1.1', depth: 2, toolCalls: 1 }]);
  });

  it('ends as "budget exhausted" when it ran out of turns, and keeps its run for Ctrl-O', async () => {
    const events = tagged(FINDER_TAG, await childEvents(FINDER));
    const done = events.at(-1) as Extract<AgentEvent, { type: 'subagent' }>;
    expect(done.event.type).toBe('done');
    const outcome = (done.event as Extract<AgentEvent, { type: 'done' }>).outcome;
    const { store, view } = viewOf();
    const results = new RecentResults(store);
    view.children.onEnded = (child) => {
      const { title, text } = childTranscript(child);
      results.keep(title, text);
    };
    for (const event of events.slice(0, -1)) view.apply(event);
    view.apply({
      ...done,
      event: { type: 'done', outcome: { ...outcome, kind: 'max_turns', text: 'Stopped after 3 turns' } },
    });
    expect(shown(store)[0]).toMatch(/^! finder \(explore\) · budget exhausted · 3 tool calls/);
    results.expandLatest();
    store.flush();
    const expanded = store.getSnapshot().staticItems.at(-1);
    expect(expanded).toMatchObject({ kind: 'expanded' });
    const text = renderEntry(expanded as Parameters<typeof renderEntry>[0], 100)
      .map(plainText)
      .join('\n');
    expect(text).toContain('Agent finder (explore): budget exhausted · 3 tool calls');
    expect(text).toContain('› Find where the answer is defined.');
    expect(text).toContain('✓ Read a.ts — ');
    expect(text).toContain('✓ Search /answer/');
    expect(text).toContain('budget exhausted: Stopped after 3 turns');
  });
});
