import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHookProcess } from '../../../src/hooks/run_hook.js';
import { tempDir } from '../../support/runtime_fixtures.js';

const env = { PATH: process.env.PATH };

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('running a hook process', () => {
  it('gives the hook its input on stdin and collects its output and exit code', async () => {
    const exit = await runHookProcess({
      command: 'cat; echo oops >&2; exit 3',
      input: '{"hook_event_name":"Stop"}',
      cwd: tempDir(),
      env,
      timeoutSeconds: 10,
    });
    expect(exit).toEqual({ kind: 'exited', code: 3, stdout: '{"hook_event_name":"Stop"}', stderr: 'oops\n' });
  });

  it('kills the whole process group on timeout, the processes the hook started too', async () => {
    const dir = tempDir();
    const pidFile = join(dir, 'pid');
    const exit = await runHookProcess({
      command: `sleep 60 & echo $! > ${pidFile}; wait`,
      input: '{}',
      cwd: dir,
      env,
      timeoutSeconds: 1,
    });
    expect(exit.kind).toBe('timed_out');
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    // SIGKILL is delivered at once; the zombie is reaped by init, so wait until it is gone.
    await expect.poll(() => alive(grandchild), { timeout: 5_000 }).toBe(false);
  });

  it('stops a hook that floods its output', async () => {
    const exit = await runHookProcess({ command: 'yes', input: '', cwd: tempDir(), env, timeoutSeconds: 30 });
    expect(exit.kind).toBe('flooded');
  });

  it('runs in the given folder, and an abort ends it without a verdict', async () => {
    const dir = tempDir();
    const controller = new AbortController();
    const running = runHookProcess({
      command: `pwd > out; sleep 30`,
      input: '',
      cwd: dir,
      env,
      timeoutSeconds: 60,
      signal: controller.signal,
    });
    await expect.poll(() => existsSync(join(dir, 'out'))).toBe(true);
    controller.abort();
    expect(await running).toEqual({ kind: 'aborted' });
    expect(readFileSync(join(dir, 'out'), 'utf8').trim()).toBe(dir);
  });
});
