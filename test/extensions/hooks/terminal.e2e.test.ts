import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { needs } from '../../support/required_programs.js';
import { tempDir } from '../../support/runtime_fixtures.js';
import { latheStarter, repo } from '../../tui/support/lathe_terminal.js';

// Hooks in the interactive UI: the built `lathe` in a real terminal (tmux), against the fake
// model server; the hooks live in the user's settings.

const start = latheStarter();

needs('tmux')('hooks in the interactive UI', () => {
  it('lists hooks with /hooks, blocks a command, notifies on an approval and shows a failing hook', async () => {
    const home = tempDir('lathe-home-');
    const notified = join(home, 'notified.json');
    const refuseRm = `grep -q '"command":"rm ' && { echo "rm is not allowed here" >&2; exit 2; } || true`;
    mkdirSync(join(home, 'settings'));
    writeFileSync(
      join(home, 'settings', 'settings.json'),
      JSON.stringify({
        hooks: {
          PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: refuseRm }] }],
          Notification: [{ matcher: '', hooks: [{ type: 'command', command: `cat > ${notified}` }] }],
          PostToolUse: [{ matcher: 'execute_command', hooks: [{ type: 'command', command: 'exit 1' }] }],
        },
      }),
    );
    const dir = repo({ 'build/out.js': 'x' });
    const lathe = await start(
      [
        { toolCalls: [{ name: 'execute_command', input: { command: 'rm -rf build' } }] },
        { toolCalls: [{ name: 'execute_command', input: { command: 'touch made' } }] },
        { text: 'All done.' },
      ],
      { dir, home },
    );
    const { term } = lathe;
    term.type('/hooks');
    term.press('Enter');
    const listed = await term.waitFor('3 hooks');
    expect(listed).toContain('PreToolUse');
    expect(listed).toContain('Bash  grep -q');
    expect(listed).toContain(`from ${join(home, 'settings', 'settings.json')}`);

    term.type('clean up, then make a file');
    term.press('Enter');
    await term.waitFor('Run `touch made`?');
    expect(JSON.parse(readFileSync(notified, 'utf8'))).toMatchObject({
      hook_event_name: 'Notification',
      notification_type: 'permission_prompt',
    });
    expect(existsSync(join(dir, 'build/out.js'))).toBe(true);
    expect(lathe.requests()[1].toolResults[0]).toMatchObject({
      content: 'Blocked by a hook: rm is not allowed here',
      isError: true,
    });
    term.press('1');
    await term.waitFor('All done.');
    await term.waitFor('(PostToolUse execute_command) exited with code 1; going on without it');
    expect(existsSync(join(dir, 'made'))).toBe(true);
  });
});
