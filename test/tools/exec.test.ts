import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/runtime/create_runtime.js';
import { eventually, processesCarrying, uniqueToken } from '../support/processes.js';
import { testNeeds } from '../support/required_programs.js';
import { tempDir } from '../support/runtime_fixtures.js';

function runtime(options: Parameters<typeof createRuntime>[0] = {}) {
  const dir = tempDir();
  return {
    dir,
    rt: createRuntime({
      cwd: dir,
      documentsRoot: tempDir('lathe-home-'),
      env: {},
      approve: ['executeAll'],
      ...options,
    }),
  };
}

describe('execute_command', () => {
  testNeeds('bwrap')('returns the output and the exit code', async () => {
    const { rt } = runtime();
    const r = await rt.runTool('execute_command', { command: 'echo hello; echo oops >&2' });
    expect(r.isError).toBe(false);
    expect(r.text).toBe('hello\noops\n\nExit code 0.');
  });

  testNeeds('bwrap')('reports a non-zero exit as a result with the output', async () => {
    const { rt } = runtime();
    const r = await rt.runTool('execute_command', { command: 'echo failing; exit 3' });
    expect(r).toMatchObject({ isError: true, text: 'failing\n\nExit code 3.' });
  });

  testNeeds('bwrap')('gives commands no standard input, so one waiting for input ends', async () => {
    const { rt } = runtime();
    const r = await rt.runTool('execute_command', { command: 'read x && echo "got:$x" || echo "no input"' });
    expect(r.text).toMatch(/^no input/);
  });

  testNeeds('bwrap')('stops the whole process tree at the timeout', async () => {
    const { rt } = runtime();
    const token = uniqueToken('timeout');
    const r = await rt.runTool('execute_command', {
      command: `export MARK=${token}; sleep 30 & sleep 31; echo never`,
      timeout: 1,
    });
    expect(r.text).toMatch(/Stopped after 1 s \(timeout\)/);
    expect(r.text).not.toMatch(/never/);
    expect(await eventually(() => processesCarrying(token).length === 0)).toBe(true);
  });

  testNeeds('bwrap')(
    'keeps a flood of output out of memory: head and tail for the model, all of it on disk',
    async () => {
      const { rt } = runtime();
      const r = await rt.runTool('execute_command', {
        command: "head -c 30000000 /dev/zero | tr '\\0' 'a'; echo; echo END",
      });
      expect(r.text.length).toBeLessThan(30_000);
      expect(r.text).toMatch(/bytes omitted; the whole output is in (\S+) …/);
      const path = /Full output: (\S+)/.exec(r.text)![1];
      expect(statSync(path).size).toBe(30_000_005);
      expect(r.text).toMatch(/END\n\nExit code 0/);
    },
  );

  testNeeds('bwrap')('runs in a folder inside the workspace, and refuses one outside', async () => {
    const { dir, rt } = runtime();
    mkdirSync(join(dir, 'sub'));
    expect((await rt.runTool('execute_command', { command: 'pwd', cwd: 'sub' })).text).toMatch(/\/sub\n/);
    expect((await rt.runTool('execute_command', { command: 'pwd', cwd: '/' })).text).toMatch(
      /outside the workspace/,
    );
  });

  testNeeds('bwrap')('runs in the background and is stopped by kill_command, tree and all', async () => {
    const { rt } = runtime();
    const token = uniqueToken('background');
    const started = await rt.runTool('execute_command', {
      command: `export MARK=${token}; bash -c 'sleep 60; echo child' & sleep 60`,
      run_in_background: true,
    });
    const id = (started.data as { id: string }).id;
    expect(started.text).toMatch(/Started in the background as cmd_/);
    // Both sleeps and the inner bash (or the sleep it became) run before the kill.
    expect(await eventually(() => processesCarrying(token).length >= 2)).toBe(true);
    const killed = await rt.runTool('kill_command', { id });
    expect(killed.text).toMatch(/^Stopped cmd_/);
    expect(await eventually(() => processesCarrying(token).length === 0)).toBe(true);
  });

  it('kill_command names the running commands when the id is unknown', async () => {
    const { rt } = runtime();
    expect((await rt.runTool('kill_command', { id: 'cmd_nope' })).text).toMatch(
      /No background command cmd_nope. Running: none/,
    );
  });
});

describe('execute_command permissions', () => {
  testNeeds('bwrap')('runs a read-only command without approval', async () => {
    const { rt } = runtime({ approve: [] });
    expect((await rt.runTool('execute_command', { command: 'ls -la | head -3' })).text).toMatch(
      /Exit code 0/,
    );
  });

  testNeeds('bwrap')('asks (headless: refuses) for a command that changes things', async () => {
    const { dir, rt } = runtime({ approve: [] });
    const r = await rt.runTool('execute_command', { command: 'touch made.txt' });
    expect(r.text).toMatch(/executeAll/);
    expect(existsSync(join(dir, 'made.txt'))).toBe(false);
  });

  testNeeds('bwrap')('treats requires_approval as the stricter answer', async () => {
    const { rt } = runtime({ approve: [] });
    expect((await rt.runTool('execute_command', { command: 'ls', requires_approval: true })).text).toMatch(
      /executeAll/,
    );
  });

  testNeeds('bwrap')('an allow rule for npm test does not cover a chained rm', async () => {
    const { dir, rt } = runtime({
      approve: [],
      settings: { permissions: { allow: ['execute_command(echo test*)'] } },
    });
    expect((await rt.runTool('execute_command', { command: 'echo test one' })).isError).toBe(false);
    const chained = await rt.runTool('execute_command', { command: 'echo test && touch bad.txt' });
    expect(chained.text).toMatch(/needs approval/);
    expect(existsSync(join(dir, 'bad.txt'))).toBe(false);
  });

  testNeeds('bwrap')('an allow rule never covers a redirection into a file it did not name', async () => {
    const { dir, rt } = runtime({
      approve: [],
      settings: { permissions: { allow: ['execute_command(echo test*)'] } },
    });
    expect((await rt.runTool('execute_command', { command: 'echo test > out.txt' })).text).toMatch(
      /needs approval/,
    );
    expect(existsSync(join(dir, 'out.txt'))).toBe(false);
  });

  testNeeds('bwrap')('an allow rule that names the redirection target covers it', async () => {
    const { dir, rt } = runtime({
      approve: [],
      settings: { permissions: { allow: ['execute_command(echo test > out.txt)'] } },
    });
    expect((await rt.runTool('execute_command', { command: 'echo test > out.txt' })).isError).toBe(false);
    expect(existsSync(join(dir, 'out.txt'))).toBe(true);
  });

  testNeeds('bwrap')('a command too complex to parse is never auto-allowed by a pattern rule', async () => {
    const { rt } = runtime({ approve: [], settings: { permissions: { allow: ['execute_command(f*)'] } } });
    const r = await rt.runTool('execute_command', { command: 'f() { echo hi; }; f' });
    expect(r.text).toMatch(/needs approval/);
  });

  it('a deny rule matches a subcommand hidden in a chain', async () => {
    const { rt } = runtime({ settings: { permissions: { deny: ['execute_command(rm *)'] } } });
    expect((await rt.runTool('execute_command', { command: 'ls && rm -rf nothing' })).text).toMatch(
      /denied by rule/,
    );
  });

  it('is read-only and concurrency-safe only for read-only commands', async () => {
    const { rt } = runtime();
    const tool = rt.pool.find((t) => t.name === 'execute_command')!;
    const facts = async (command: string) => (await tool.parseFacts!({ command }))!;
    expect(tool.isReadOnly({ command: 'git status' }, await facts('git status'))).toBe(true);
    expect(tool.isConcurrencySafe({ command: 'git status' }, await facts('git status'))).toBe(true);
    expect(tool.isReadOnly({ command: 'rm -f x' }, await facts('rm -f x'))).toBe(false);
  });
});

describe('sending a running command to the background', () => {
  testNeeds('bwrap')('hands the model the result at once and lets the command run on', async () => {
    const { dir, rt } = runtime();
    // The command waits for the test's go-ahead, so it is still running when it is detached.
    const pending = rt.runTool('execute_command', {
      command: 'while [ ! -e go ]; do sleep 0.05; done; echo done > finished.txt',
      timeout: 60,
    });
    expect(await eventually(() => rt.detachForegroundCommands() === 1)).toBe(true);
    const r = await pending;
    expect(r.text).toMatch(/sent the command to the background as (cmd_\w+); it is still running/);
    const id = /as (cmd_\w+)/.exec(r.text)![1];
    expect(rt.runningBackgroundWork().map((w) => w.id)).toEqual([id]);
    writeFileSync(join(dir, 'go'), '');
    // Done when the runtime has seen the process end, not merely when its file appeared.
    expect(await eventually(() => rt.runningBackgroundWork().length === 0)).toBe(true);
    expect(existsSync(join(dir, 'finished.txt'))).toBe(true);
    expect((await rt.runTool('kill_command', { id })).text).toMatch(/had already ended \(exit code 0\)/);
  });

  it('does nothing when no command is running', () => {
    expect(runtime().rt.detachForegroundCommands()).toBe(0);
  });
});
