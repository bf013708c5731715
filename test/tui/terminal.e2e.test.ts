import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { needs, testNeeds } from '../support/required_programs.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { latheStarter, leaveWithCtrlC, repo } from './support/lathe_terminal.js';

// The built `lathe` in a real terminal (tmux), against the fake model server. `npm test` builds
// first; CI installs tmux (.ci/run), so a missing tmux fails these tests rather than skipping them.

const start = latheStarter();

needs('tmux')('lathe (the interactive UI) in a terminal', () => {
  it('runs a task with an edit the user approves, seeing its diff first', async () => {
    const dir = repo({ 'src/config.ts': 'export const VERSION = "1.0";\n' });
    const { term } = await start(
      [
        { toolCalls: [{ name: 'read_file', input: { path: 'src/config.ts' } }] },
        {
          toolCalls: [
            { name: 'edit_file', input: { path: 'src/config.ts', old_string: '"1.0"', new_string: '"2.0"' } },
          ],
        },
        { toolCalls: [{ name: 'attempt_completion', input: { result: 'Bumped the version to 2.0.' } }] },
      ],
      { dir },
    );
    term.type('bump the version');
    term.press('Enter');
    const asked = await term.waitFor('Edit src/config.ts?');
    expect(asked).toContain('1 - export const VERSION = "1.0";');
    expect(asked).toContain('1 + export const VERSION = "2.0";');
    expect(readFileSync(join(dir, 'src/config.ts'), 'utf8')).toContain('"1.0"');
    term.press('1');
    await term.waitFor('Bumped the version to 2.0.');
    expect(readFileSync(join(dir, 'src/config.ts'), 'utf8')).toBe('export const VERSION = "2.0";\n');
  });

  testNeeds('bwrap')('denies a command and tells the model why', async () => {
    const dir = repo({ 'build/out.js': 'x' });
    const lathe = await start(
      [
        { toolCalls: [{ name: 'execute_command', input: { command: 'rm -rf build' } }] },
        { text: 'Understood, I keep the build folder.' },
      ],
      { dir },
    );
    lathe.term.type('clean up');
    lathe.term.press('Enter');
    const asked = await lathe.term.waitFor('Run `rm -rf build`?');
    expect(asked).toContain("don't ask again this session for `rm` commands");
    lathe.term.type('t'); // no, and tell the model why
    await lathe.term.waitFor('Tell the model why');
    lathe.term.type('the build folder is needed');
    lathe.term.press('Enter');
    await lathe.term.waitFor('Understood, I keep the build folder.');
    expect(existsSync(join(dir, 'build/out.js'))).toBe(true);
    expect(lathe.requests()[1].toolResults[0]).toMatchObject({
      content: 'The user declined execute_command. The user said: the build folder is needed',
      isError: true,
    });
  });

  it('switches to Plan mode with Shift+Tab, and an approved plan goes back to Act', async () => {
    const lathe = await start(
      [
        { toolCalls: [{ name: 'make_plan', input: { plan: '1. Write hello.txt' } }] },
        { toolCalls: [{ name: 'write_to_file', input: { path: 'hello.txt', content: 'hi\n' } }] },
        { toolCalls: [{ name: 'attempt_completion', input: { result: 'Wrote hello.txt.' } }] },
      ],
      { args: ['--approve', 'edit'] },
    );
    const { term } = lathe;
    term.press('BTab');
    await term.waitFor('edits approved', { visible: true });
    term.press('BTab');
    await term.waitFor(' PLAN ', { visible: true });
    term.type('write hello');
    term.press('Enter');
    await term.waitFor('Approve this plan?');
    expect(lathe.requests()[0].systemText).toMatch(/Plan mode/);
    term.press('Enter');
    await term.waitFor('Now in Act mode');
    await term.waitFor('Wrote hello.txt.');
    expect(readFileSync(join(lathe.dir, 'hello.txt'), 'utf8')).toBe('hi\n');
    // Back in Act mode, enter_plan_mode is offered again: deferred, it is listed in tool_search's definition.
    expect(JSON.stringify(lathe.requests()[1].body)).toContain('- enter_plan_mode:');
    expect(term.screen()).toContain(' ACT ');
  });

  testNeeds('bwrap')('delivers a message typed while the agent works at its next step', async () => {
    const dir = repo();
    const lathe = await start(
      [
        // The command waits for a file the test writes once the message is queued.
        {
          toolCalls: [
            {
              name: 'execute_command',
              input: { command: 'while [ ! -f go ]; do sleep 0.1; done; echo went' },
            },
          ],
        },
        {
          toolCalls: [
            { name: 'working_respond', input: { message: 'Noted: I will check b.txt too.' } },
            { name: 'attempt_completion', input: { result: 'Checked a.txt and b.txt.' } },
          ],
        },
      ],
      { dir, args: ['--approve', 'executeAll'] },
    );
    const { term } = lathe;
    term.type('check a.txt');
    term.press('Enter');
    await term.waitFor('Run while [ ! -f go ]');
    term.type('also check b.txt');
    term.press('Enter');
    await term.waitFor('queued: also check b.txt');
    writeFileSync(join(dir, 'go'), '');
    await term.waitFor('Checked a.txt and b.txt.');
    expect(term.history()).toContain('Noted: I will check b.txt too.');
    const second = lathe.requests()[1];
    expect(second.toolResults[0].content).toContain('went');
    expect(second.lastUserText).toContain('also check b.txt');
  });

  it('interrupts a step with Esc, and the next prompt goes on', async () => {
    const lathe = await start([{ hang: true }, { text: 'A fresh answer.' }]);
    const { term } = lathe;
    term.type('think hard');
    term.press('Enter');
    await term.waitFor('Thinking…');
    // Esc once the request is out: pressed before it, the hanging turn would go to the next prompt.
    await lathe.server.untilModelRequests(1);
    term.press('Escape');
    await term.waitFor('Interrupted.');
    term.type('try again');
    term.press('Enter');
    await term.waitFor('A fresh answer.');
    expect(lathe.requests()).toHaveLength(2);
    expect(lathe.requests()[1].lastUserText).toContain('try again');
  });

  it('resumes the last session with --continue, its conversation shown and sent again', async () => {
    const dir = repo();
    const home = tempDir('lathe-home-');
    mkdirSync(join(home, 'settings'), { recursive: true });
    const first = await start([{ text: 'The answer is 42.' }], { dir, home });
    first.term.type('what is the answer?');
    first.term.press('Enter');
    await first.term.waitFor('The answer is 42.');
    await leaveWithCtrlC(first.term);

    const second = await start([{ text: 'Still 42.' }], { dir, home, args: ['--continue'] });
    const shown = await second.term.waitFor('Resumed session');
    expect(shown).toContain('what is the answer?');
    expect(shown).toContain('The answer is 42.');
    second.term.type('and now?');
    second.term.press('Enter');
    await second.term.waitFor('Still 42.');
    const sent = JSON.stringify(second.requests()[0].body.messages);
    expect(sent).toContain('what is the answer?');
    expect(sent).toContain('The answer is 42.');
    expect(second.requests()[0].lastUserText).toBe('and now?');
  });

  it('works in a plain 80×24 terminal with colors off: the approval and the status line fit', async () => {
    const before = Array.from({ length: 60 }, (_, i) => `line ${i}`).join('\n');
    const after = before.replace(/line (\d+)/g, 'LINE $1');
    const dir = repo({ 'big.txt': `${before}\n` });
    const { term } = await start(
      [
        { toolCalls: [{ name: 'write_to_file', input: { path: 'big.txt', content: `${after}\n` } }] },
        { text: 'Rewrote it.' },
      ],
      { dir, env: { TERM: 'xterm', NO_COLOR: '1' }, size: { width: 80, height: 24 } },
    );
    term.type('shout');
    term.press('Enter');
    const screen = await term.waitFor('Enter or a digit to answer', { visible: true });
    for (const part of ['Write big.txt?', '1. Yes', 't tell the model why', ' ACT '])
      expect(screen).toContain(part);
    expect(term.history()).toContain('60 + LINE 59');
    // No color codes (30–37, 90–97 foreground); bold and inverse may stay.
    expect(term.screenWithStyles()).not.toMatch(/\x1b\[[0-9;]*(3[0-7]|9[0-7])m/);
    term.press('1');
    await term.waitFor('Rewrote it.');
  });
});
