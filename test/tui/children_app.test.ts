import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/events.js';
import { NO_FACTS } from '../../src/tool/facts.js';
import { executeCommand } from '../../src/tools/exec/execute_command.js';
import { askApproval } from '../../src/tui/session/approvals.js';
import { AgentEventView } from '../../src/tui/state/agent_events.js';
import { type AppUnderTest, renderApp } from './support/app_harness.js';
import { childEvents, childServers, FINDER, tagged } from './support/child_events.js';

const CTRL_T = '\x14';

let app: AppUnderTest | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
  for (const server of childServers.splice(0)) await server.close();
});

const FINDER_TAG = { id: 'child-1', name: 'finder', type: 'explore', depth: 1 };

describe('watching a child agent in the app', () => {
  it('shows it live, opens and closes its latest steps with Ctrl+T, and prints its summary when it ends', async () => {
    const events = tagged(FINDER_TAG, await childEvents(FINDER));
    app = await renderApp([]);
    await app.waitFor('Ask lathe to do something');
    const view = new AgentEventView(app.session.store);
    const lastCall = events.findLastIndex((e) => e.type === 'subagent' && e.event.type === 'tool_call');
    for (const event of events.slice(0, lastCall)) view.apply(event);

    await app.waitFor(/finder \(explore\) · 2 tool calls · 2\.4k tokens · [\d.]+m?s · Search \/answer\//);
    expect(app.frame()).not.toContain('Reading a.ts first.');

    app.write(CTRL_T);
    const open = await app.waitFor('✓ Read a.ts');
    expect(open).toContain('“Reading a.ts first.”');
    expect(open).toContain('✓ Search /answer/');

    app.write(CTRL_T);
    await app.waitFor('Child agents show one line each');
    expect(app.frame()).not.toContain('✓ Read a.ts');

    for (const event of events.slice(lastCall)) view.apply(event as AgentEvent);
    const ended = await app.waitFor(
      /✓ finder \(explore\) · completed · 3 tool calls · 3\.6k tokens · [\d.]+m?s/,
    );
    expect(ended).not.toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] finder/);
  });

  it('asks about a child’s call in the child’s name, leaving the parent’s tool line of the same id alone', async () => {
    app = await renderApp([]);
    await app.waitFor('Ask lathe to do something');
    const { store, runtime } = app.session;
    store.addTool({ id: 'c1', name: 'read_file', input: { path: 'a.ts' }, status: 'running' });
    const input = { command: 'touch made-by-child' };
    const answer = askApproval(
      {
        call: { id: 'c1', name: 'execute_command', input },
        tool: executeCommand,
        input,
        facts: NO_FACTS,
        reason: 'execute_command needs approval (category executeAll)',
        category: 'executeAll',
        agent: FINDER_TAG,
      },
      { store, runtime, autoEdits: false, interrupt: () => {} },
    );
    const asked = await app.waitFor('finder wants to: Run `touch made-by-child`?');
    expect(asked).toContain('finder (explore): Run touch made-by-child');
    app.write('1');
    expect(await answer).toEqual({ approved: true });
    store.flush();
    // The proposal comes after the parent's running line, never in its place.
    expect(store.getSnapshot().live).toMatchObject([
      { kind: 'tool', tool: { id: 'c1', status: 'running' } },
      { kind: 'done', entry: { kind: 'proposal', title: 'finder (explore): Run touch made-by-child' } },
    ]);
    expect(store.getSnapshot().live[0]).not.toHaveProperty('tool.diffShown');
  });
});
