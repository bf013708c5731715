import { spawn } from 'node:child_process';

/** Output kept per stream; a hook that prints more is stopped (its output is not trusted). */
export const HOOK_OUTPUT_LIMIT = 64 * 1024;
/** How long a finished hook's background processes may keep its output open. */
const LINGER_MS = 1_000;

/** How one hook process ended. */
export type HookExit =
  | { kind: 'exited'; code: number; stdout: string; stderr: string }
  /** Ended by a signal it did not get from lathe (a crash). */
  | { kind: 'crashed'; signal: string; stdout: string; stderr: string }
  | { kind: 'timed_out'; seconds: number; stdout: string; stderr: string }
  | { kind: 'flooded'; stdout: string; stderr: string }
  /** The shell could not be started at all. */
  | { kind: 'not_started'; message: string }
  | { kind: 'aborted' };

export interface HookProcessOptions {
  command: string;
  /** The JSON the hook reads on stdin. */
  input: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutSeconds: number;
  signal?: AbortSignal;
}

/**
 * Runs a hook command with `sh -c` in a process group of its own, the input on stdin. On
 * timeout, abort or output past the limit, the whole group is killed: a hook's children (a
 * `sleep` it started, a server it forked) end with it. Never throws.
 */
export function runHookProcess(options: HookProcessOptions): Promise<HookExit> {
  const { command, input, cwd, env, timeoutSeconds, signal } = options;
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve({ kind: 'aborted' });
    const child = spawn('/bin/sh', ['-c', command], {
      cwd,
      env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let ended: 'timed_out' | 'flooded' | 'aborted' | undefined;
    const killGroup = (why: typeof ended) => {
      ended ??= why;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is gone already.
      }
    };
    const timer = setTimeout(() => killGroup('timed_out'), timeoutSeconds * 1000);
    const onAbort = () => killGroup('aborted');
    signal?.addEventListener('abort', onAbort, { once: true });
    const collect = (which: 'stdout' | 'stderr') => (chunk: Buffer) => {
      const text = chunk.toString();
      if (which === 'stdout') stdout += text;
      else stderr += text;
      if (stdout.length > HOOK_OUTPUT_LIMIT || stderr.length > HOOK_OUTPUT_LIMIT) killGroup('flooded');
    };
    child.stdout.on('data', collect('stdout'));
    child.stderr.on('data', collect('stderr'));
    // A hook that does not read its input closes the pipe early: that is no failure.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
    let linger: NodeJS.Timeout | undefined;
    const finish = (exit: HookExit) => {
      clearTimeout(timer);
      clearTimeout(linger);
      signal?.removeEventListener('abort', onAbort);
      resolve(exit);
    };
    child.on('error', (error) => finish({ kind: 'not_started', message: error.message }));
    // The hook has ended, but something it started in the background may still hold its output
    // open: that is given a moment, then the group is ended (a detached daemon is not in it).
    child.on('exit', () => {
      linger = setTimeout(() => {
        try {
          if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        } catch {
          // Nothing left.
        }
      }, LINGER_MS);
    });
    child.on('close', (code, killedBy) => {
      const out = { stdout: stdout.slice(0, HOOK_OUTPUT_LIMIT), stderr: stderr.slice(0, HOOK_OUTPUT_LIMIT) };
      if (ended === 'aborted') finish({ kind: 'aborted' });
      else if (ended === 'timed_out') finish({ kind: 'timed_out', seconds: timeoutSeconds, ...out });
      else if (ended === 'flooded') finish({ kind: 'flooded', ...out });
      else if (code === null) finish({ kind: 'crashed', signal: killedBy ?? 'a signal', ...out });
      else finish({ kind: 'exited', code, ...out });
    });
  });
}
