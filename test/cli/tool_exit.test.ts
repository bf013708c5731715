import { describe, expect } from 'vitest';
import { latheAsync } from '../support/cli.js';
import { processesCarrying, uniqueToken } from '../support/processes.js';
import { testNeeds } from '../support/required_programs.js';
import { tempDir } from '../support/runtime_fixtures.js';

const env = () => ({ LATHE_HOME: tempDir('lathe-home-'), LATHE_FEATURES: '', NODE_ENV: 'test' });

/** Runs lathe; one that has not exited long after its call would have (the bug) is ended, so the test fails on its exit code rather than by timing out. */
function run(args: string[]) {
  let guard: NodeJS.Timeout | undefined;
  return latheAsync(args, {
    cwd: tempDir(),
    env: env(),
    onSpawn: (child) => {
      guard = setTimeout(() => child.kill('SIGKILL'), 25_000);
      child.on('exit', () => clearTimeout(guard));
    },
  });
}

describe('lathe tool exits when its call is done', () => {
  testNeeds('bwrap')('ends a background command it started, with a line on stderr', async () => {
    const token = uniqueToken('tool-background');
    const command = `export MARK=${token}; sleep 300`;
    const r = await run([
      'tool',
      'execute_command',
      '--yolo',
      '--input',
      JSON.stringify({ command, run_in_background: true }),
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Started in the background as (cmd_[0-9a-f]{8})/);
    const id = /as (cmd_[0-9a-f]{8})/.exec(r.stdout)![1];
    expect(r.stderr).toMatch(
      new RegExp(
        `^lathe: ended background command ${id} \\(${command.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\) as lathe tool exits; its output so far: \\S+/${id}\\.log\\n$`,
      ),
    );
    expect(processesCarrying(token)).toEqual([]);
  });

  testNeeds('bwrap')('ends a task it started, with a line on stderr', async () => {
    const token = uniqueToken('tool-task');
    const r = await run([
      'tool',
      'task_create',
      '--feature',
      'tasks',
      '--yolo',
      '--input',
      JSON.stringify({ subject: 'dev server', command: `export MARK=${token}; sleep 300` }),
    ]);
    expect(r.code).toBe(0);
    const id = /^Started (task_[0-9a-f]{8})/.exec(r.stdout)![1];
    expect(r.stderr).toContain(
      `lathe: ended background task ${id} (export MARK=${token}; sleep 300) as lathe tool exits`,
    );
    expect(processesCarrying(token)).toEqual([]);
  });
});
