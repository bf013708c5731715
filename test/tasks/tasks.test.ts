import { existsSync, readFileSync, statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { NO_FACTS } from '../../src/tool/facts.js';
import { findTool } from '../../src/tool/pool.js';
import { builtinTools } from '../../src/tools/index.js';
import { testNeeds } from '../support/required_programs.js';
import { disposeAll, eventually, processesCarrying, runtimeWith, uniqueToken } from './helpers.js';

afterEach(disposeAll);

const idOf = (r: { data?: unknown }) => (r.data as { id: string }).id;

describe('task tools', () => {
  it('are offered with the tasks feature; task_output and task_stop without it', () => {
    const names = (features: string[]) => runtimeWith(features).pool.map((t) => t.name);
    for (const name of ['task_create', 'task_get', 'task_update', 'task_list'])
      expect(names([])).not.toContain(name);
    expect(names([])).toEqual(expect.arrayContaining(['task_output', 'task_stop']));
    expect(names(['tasks'])).toEqual(
      expect.arrayContaining([
        'task_create',
        'task_get',
        'task_update',
        'task_list',
        'task_output',
        'task_stop',
      ]),
    );
  });

  it('declare the contract: readers are read-only and concurrency-safe, task_stop only the second', () => {
    const tool = (name: string) => findTool(builtinTools(), name)!;
    for (const name of ['task_get', 'task_list']) {
      expect(tool(name).isReadOnly({ id: 'x' }, NO_FACTS)).toBe(true);
      expect(tool(name).isConcurrencySafe({ id: 'x' }, NO_FACTS)).toBe(true);
    }
    // Read-only, and then concurrency-safe, when it only reads: `all` leaves the read position.
    expect(tool('task_output').isReadOnly({ id: 'x', all: true }, NO_FACTS)).toBe(true);
    expect(tool('task_output').isConcurrencySafe({ id: 'x', all: true }, NO_FACTS)).toBe(true);
    // Reading "new since last read" moves the read position: two such reads must not race.
    expect(tool('task_output').isReadOnly({ id: 'x' }, NO_FACTS)).toBe(false);
    expect(tool('task_output').isConcurrencySafe({ id: 'x' }, NO_FACTS)).toBe(false);
    // The position is lathe's own state: Plan mode lets every read run.
    expect(tool('task_output').planModeAllowed({ id: 'x' }, NO_FACTS)).toBe(true);
    for (const name of ['task_create', 'task_update']) {
      expect(tool(name).isReadOnly({ id: 'x', subject: 's' }, NO_FACTS)).toBe(false);
      expect(tool(name).isConcurrencySafe({ id: 'x', subject: 's' }, NO_FACTS)).toBe(false);
    }
    expect(tool('task_stop').isReadOnly({ id: 'x' }, NO_FACTS)).toBe(false);
    expect(tool('task_stop').isConcurrencySafe({ id: 'x' }, NO_FACTS)).toBe(true);
  });

  testNeeds('bwrap')('runs a command as a real process and reports how it ended', async () => {
    const rt = runtimeWith(['tasks']);
    const created = await rt.runTool('task_create', {
      subject: 'count',
      command: 'echo one; echo two; exit 3',
    });
    expect(created.text).toMatch(/^Started task_[0-9a-f]{8}: count \(pid \d+\)/);
    const id = idOf(created);
    await eventually(async () => /\[failed\]/.test((await rt.runTool('task_get', { id })).text));
    const got = await rt.runTool('task_get', { id });
    expect(got.text).toMatch(/ended .* with exit code 3/);
    expect(got.text).toMatch(/output: 8 bytes in .*tasks\/task_[0-9a-f]{8}\.log, 8 not yet read/);
  });

  testNeeds('bwrap')(
    'task_output returns what is new since the last read, or everything with all',
    async () => {
      const rt = runtimeWith(['tasks']);
      const dir = rt.cwd;
      const id = idOf(
        await rt.runTool('task_create', {
          subject: 'print on demand',
          command: `echo first; while [ ! -e ${dir}/go ]; do sleep 0.05; done; echo second`,
        }),
      );
      await eventually(async () => /first/.test((await rt.runTool('task_output', { id, all: true })).text));
      expect((await rt.runTool('task_output', { id })).text).toBe(`${id} [running], new output:\nfirst\n`);
      expect((await rt.runTool('task_output', { id })).text).toBe(
        `${id} [running], new output:\n(no new output)`,
      );
      await rt.runTool('execute_command', { command: 'touch go' });
      const rest = await rt.runTool('task_output', { id, wait: 20 });
      expect(rest.text).toBe(`${id} [completed, exit code 0], new output:\nsecond\n`);
      expect((await rt.runTool('task_output', { id, all: true })).text).toBe(
        `${id} [completed, exit code 0]:\nfirst\nsecond\n`,
      );
    },
  );

  testNeeds('bwrap')('gives long output in parts, never more than the budget at once', async () => {
    const rt = runtimeWith(['tasks']);
    const id = idOf(await rt.runTool('task_create', { subject: 'flood', command: 'seq 1 20000' }));
    const first = await rt.runTool('task_output', { id, wait: 20 });
    expect(first.text.length).toBeLessThan(30_000);
    expect(first.text).toMatch(/more bytes unread: call task_output again/);
    let all = first.text;
    for (let i = 0; i < 10 && /more bytes unread/.test(all); i++)
      all = (await rt.runTool('task_output', { id })).text;
    expect(all).toMatch(/\n20000\n$/);
  });

  testNeeds('bwrap')('task_stop ends the whole process tree and marks the task stopped', async () => {
    const rt = runtimeWith(['tasks']);
    const token = uniqueToken('task-stop');
    const id = idOf(
      await rt.runTool('task_create', {
        subject: 'server',
        command: `export MARK=${token}; bash -c 'sleep 60; echo child' & sleep 61`,
      }),
    );
    expect(await eventually(() => processesCarrying(token).length >= 2)).toBe(true);
    expect((await rt.runTool('task_stop', { id })).text).toBe(`Stopped ${id}: server.`);
    expect(await eventually(() => processesCarrying(token).length === 0)).toBe(true);
    expect((await rt.runTool('task_list', {})).text).toMatch(new RegExp(`^${id} \\[stopped\\] server`));
    expect((await rt.runTool('task_stop', { id })).text).toMatch(/had already ended: stopped/);
  });

  testNeeds('bwrap')('runtime.dispose() ends the tasks still running', async () => {
    const rt = runtimeWith(['tasks']);
    const token = uniqueToken('task-dispose');
    const id = idOf(
      await rt.runTool('task_create', { subject: 'forever', command: `export MARK=${token}; sleep 60` }),
    );
    expect(await eventually(() => processesCarrying(token).length === 1)).toBe(true);
    await rt.dispose();
    expect(processesCarrying(token)).toEqual([]);
    expect((await rt.runTool('task_get', { id })).text).toMatch(/\[stopped\] forever/);
  });

  it('tracks work without a command: statuses set by task_update, filtered by task_list', async () => {
    const rt = runtimeWith(['tasks']);
    const a = idOf(await rt.runTool('task_create', { subject: 'write docs' }));
    const b = idOf(await rt.runTool('task_create', { subject: 'review', description: 'the API' }));
    expect((await rt.runTool('task_get', { id: b })).text).toMatch(/\[pending\] review\nthe API\ncreated /);
    expect((await rt.runTool('task_update', { id: a, status: 'completed' })).text).toBe(
      `Updated ${a} [completed] write docs.`,
    );
    expect((await rt.runTool('task_list', { status: 'pending' })).text).toBe(`${b} [pending] review`);
    expect((await rt.runTool('task_output', { id: b })).text).toMatch(/runs no command, so it has no output/);
  });

  testNeeds('bwrap')('a command task takes its status from its process, not from task_update', async () => {
    const rt = runtimeWith(['tasks']);
    const id = idOf(await rt.runTool('task_create', { subject: 'wait', command: 'sleep 30' }));
    const r = await rt.runTool('task_update', { id, status: 'completed', subject: 'renamed' });
    expect(r).toMatchObject({ isError: true });
    expect(r.text).toMatch(/follows its process. Stop it with task_stop/);
  });

  it('names the tasks there are when an id is unknown', async () => {
    const rt = runtimeWith(['tasks']);
    expect((await rt.runTool('task_get', { id: 'task_nope' })).text).toMatch(
      /No task task_nope. Tasks: none yet/,
    );
    const id = idOf(await rt.runTool('task_create', { subject: 'x' }));
    expect((await rt.runTool('task_stop', { id: 'task_nope' })).text).toBe(
      `No task task_nope. Tasks: ${id}.`,
    );
  });

  testNeeds('bwrap')('asks before running a command that changes things (headless: refused)', async () => {
    const rt = runtimeWith(['tasks'], { approve: [] });
    const r = await rt.runTool('task_create', { subject: 'touch', command: 'touch made.txt' });
    expect(r.text).toMatch(/executeAll/);
    expect(existsSync(`${rt.cwd}/made.txt`)).toBe(false);
  });

  testNeeds('bwrap')('stops a task whose output passes the cap, and says so', async () => {
    const rt = runtimeWith(['tasks'], { settings: { commands: { maxOutputBytes: 64 * 1024 } } });
    const created = await rt.runTool('task_create', { subject: 'flood', command: 'cat /dev/zero' });
    const id = idOf(created);
    const got = await eventually(async () => {
      const text = (await rt.runTool('task_get', { id })).text;
      return /\[failed\]/.test(text) && text;
    });
    expect(got).toMatch(
      /with signal SIGTERM: output cut at 64 KB \(settings commands\.maxOutputBytes\); the task was stopped/,
    );
    expect(statSync((created.data as { outputPath: string }).outputPath).size).toBe(64 * 1024);
  });

  testNeeds('bwrap')('keeps output files in the session folder', async () => {
    const rt = runtimeWith(['tasks']);
    const created = await rt.runTool('task_create', { subject: 'hi', command: 'echo hi' });
    const { outputPath } = created.data as { outputPath: string };
    expect(outputPath.startsWith(`${rt.sessionDir}/tasks/`)).toBe(true);
    await rt.runTool('task_output', { id: idOf(created), wait: 20 });
    expect(readFileSync(outputPath, 'utf8')).toBe('hi\n');
  });
});
