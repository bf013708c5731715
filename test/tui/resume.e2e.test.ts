import { afterEach, expect, it } from 'vitest';
import { FakeModelServer } from '../support/fake_model_server.js';
import { needs } from '../support/required_programs.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { latheStarter, leaveWithCtrlC, repo } from './support/lathe_terminal.js';
import { TmuxTerminal } from './support/tmux.js';

// The built `lathe` in tmux: leaving prints how to resume, and resuming by that id without
// --model goes on with the session's model.

const start = latheStarter();
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

needs('tmux')('resuming from the terminal', () => {
  it('prints the resume command on exit, and --resume restores the model', async () => {
    const dir = repo();
    const home = tempDir('lathe-home-');
    const first = await start([{ text: 'The answer is 42.' }], { dir, home });
    first.term.type('what is the answer?');
    first.term.press('Enter');
    await first.term.waitFor('The answer is 42.');
    const after = await leaveWithCtrlC(first.term);
    const id = /resume with: lathe --resume (\S+)\n/.exec(after)?.[1];
    expect(id).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}$/);

    const server = await FakeModelServer.start({ turns: [{ text: 'Still 42.' }] });
    cleanups.push(() => server.close());
    const term = TmuxTerminal.start({
      cwd: dir,
      args: ['--resume', id!],
      env: {
        HOME: home,
        LATHE_HOME: home,
        ANTHROPIC_BASE_URL: server.url,
        ANTHROPIC_API_KEY: 'test-key',
        NODE_ENV: 'test',
      },
    });
    cleanups.push(() => term.kill());
    const shown = await term.waitFor(`Resumed session ${id}`);
    expect(shown).toContain('claude-sonnet-4-5');
    expect(shown).not.toContain('no model');
    term.type('and now?');
    term.press('Enter');
    await term.waitFor('Still 42.');
    const [request] = server.requests.filter((r) => r.kind === 'model');
    expect(request.model).toBe('claude-sonnet-4-5');
    expect(JSON.stringify(request.body.messages)).toContain('The answer is 42.');
  });
});
