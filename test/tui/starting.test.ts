import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import { needs } from '../support/required_programs.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { staticGraph } from '../support/static_graph.js';
import { type AppUnderTest, KEYS, renderApp } from './support/app_harness.js';
import { type LatheInTerminal, startLathe } from './support/lathe_terminal.js';
import { TmuxTerminal } from './support/tmux.js';

let app: AppUnderTest | undefined;
const running: LatheInTerminal[] = [];
afterEach(async () => {
  await app?.close();
  app = undefined;
  for (const lathe of running.splice(0)) {
    lathe.term.kill();
    await lathe.server.close();
  }
});
afterAll(() => TmuxTerminal.stopServer());

needs('tmux')('the first frame', () => {
  it('loads only the prompt: no runtime, tools, agent, model providers, sessions or MCP before it', () => {
    for (const entry of ['cli/interactive.ts', 'tui/index.tsx']) {
      const { files, packages } = staticGraph(entry);
      // agent/events.ts holds the event types and the empty usage the status line starts from.
      const heavy = files.filter(
        (f) =>
          /^(runtime|tools|tool|agent|provider|session|mcp|permission|edit)\//.test(f) &&
          f !== 'agent/events.ts',
      );
      expect(heavy, entry).toEqual([]);
      // string-width is Ink's own measure of text, loaded with Ink.
      expect(packages.filter((p) => !/^(node:|ink$|react$|string-width$)/.test(p))).toEqual([]);
    }
  });
});

needs('tmux')('keys before the session is ready', () => {
  it('a prompt sent meanwhile shows as queued and goes to the session once it is ready', async () => {
    app = await renderApp([{ text: 'Hello there.' }], { startLater: true });
    await app.waitFor('starting…');
    await app.submit('hello');
    await app.waitFor('queued: hello');
    expect(app.requests()).toHaveLength(0);
    app.ready();
    await app.waitFor('Hello there.');
    expect(app.requests()[0].lastUserText).toBe('hello');
    expect(app.frame()).not.toContain('queued: hello');
    expect(app.frame()).not.toContain('starting…');
  });

  it('a mode chosen with Shift+Tab meanwhile is the mode the session starts in', async () => {
    app = await renderApp([], { startLater: true });
    await app.waitFor('starting…');
    app.write(KEYS.shiftTab);
    await app.waitFor('edits approved');
    app.write(KEYS.shiftTab);
    await app.waitFor(' PLAN ');
    app.ready();
    await app.waitFor('anthropic/claude-sonnet-4-5 · standard');
    expect(app.session.runtime.conditions.mode).toBe('plan');
    expect(app.frame()).toContain(' PLAN ');
  });

  it('Esc drops what was queued', async () => {
    app = await renderApp([{ text: 'Fresh.' }], { startLater: true });
    await app.submit('never mind');
    await app.waitFor('queued: never mind');
    app.write(KEYS.escape);
    await app.waitFor(/^(?![\s\S]*queued:)/);
    app.ready();
    await app.submit('go');
    await app.waitFor('Fresh.');
    expect(app.requests()).toHaveLength(1);
    expect(app.requests()[0].lastUserText).toBe('go');
  });
});

needs('tmux')('lathe in a terminal', () => {
  it('reports a bad --resume in one line, with the UI gone, and exits with 2', async () => {
    const lathe = await startLathe([], { args: ['--resume', 'no-such-session'], waitForPrompt: false });
    running.push(lathe);
    const screen = await lathe.term.waitFor('[lathe exited 2]', { visible: true });
    expect(screen).toContain('lathe: no session matches "no-such-session"');
    expect(screen).not.toContain('Ask lathe to do something');
  });

  it('reports a settings file it cannot use in one line, with the UI gone, and exits with 2', async () => {
    const home = tempDir('lathe-home-');
    mkdirSync(join(home, 'settings'), { recursive: true });
    const file = join(home, 'settings', 'settings.json');
    writeFileSync(file, JSON.stringify({ permissions: 'yes' }));
    // Wide enough for the line whatever the temp folder's path: one line means one screen row.
    const size = { width: 200, height: 30 };
    const lathe = await startLathe([], { home, waitForPrompt: false, size });
    running.push(lathe);
    const screen = await lathe.term.waitFor('[lathe exited 2]', { visible: true });
    expect(screen).toContain(`lathe: ${file}: "permissions" must be an object (found "yes")`);
    expect(screen).not.toContain('Ask lathe to do something');
    expect(screen.trim().split('\n')).toHaveLength(2);
  });
});
