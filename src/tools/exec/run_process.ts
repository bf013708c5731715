import { spawn } from 'node:child_process';
import { OutputCapture } from './output_capture.js';

export interface ProcessOutcome {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
  output: OutputCapture;
}

export interface RunningProcess {
  pid: number | undefined;
  done: Promise<ProcessOutcome>;
  /** Ends the whole process tree: SIGTERM to the group, SIGKILL after a grace period. */
  kill(): void;
  /** Lets the process outlive its timeout and the caller's abort signal (sent to the background). */
  release(): void;
}

const GRACE_MS = 2_000;

/** Sends a signal to a process group, ignoring one that is already gone. */
function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/**
 * Starts `argv` in its own process group with no standard input, its output (stdout and stderr,
 * interleaved as they come) streamed to `outputPath`. Timeout, abort and `kill` end the whole
 * group, so no child outlives the command.
 */
export function startProcess(options: {
  argv: string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
  outputPath: string;
  keepBytes: number;
  timeoutMs?: number;
  signal?: AbortSignal;
}): RunningProcess {
  const started = performance.now();
  const output = new OutputCapture(options.outputPath, options.keepBytes);
  const child = spawn(options.argv[0], options.argv.slice(1), {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let timedOut = false;
  let aborted = false;
  let killTimer: NodeJS.Timeout | undefined;
  const kill = () => {
    signalGroup(child.pid, 'SIGTERM');
    killTimer ??= setTimeout(() => signalGroup(child.pid, 'SIGKILL'), GRACE_MS);
  };
  const timer = options.timeoutMs
    ? setTimeout(() => {
        timedOut = true;
        kill();
      }, options.timeoutMs)
    : undefined;
  const onAbort = () => {
    aborted = true;
    kill();
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  // An abort that came while the command was being prepared (the sandbox probe) fires no event.
  if (options.signal?.aborted) onAbort();

  for (const stream of [child.stdout, child.stderr]) {
    stream.on('data', (chunk: Buffer) => {
      if (!output.write(chunk)) {
        stream.pause();
        output.onDrain(() => stream.resume());
      }
    });
  }

  const done = new Promise<ProcessOutcome>((resolve) => {
    let spawnError: Error | undefined;
    child.on('error', (error) => {
      spawnError = error;
    });
    // The shell is gone: nothing it started may live on (or keep its output pipes open).
    child.on('exit', () => signalGroup(child.pid, 'SIGKILL'));
    child.on('close', async (code, signal) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (killTimer) clearTimeout(killTimer);
      if (spawnError) output.write(Buffer.from(`failed to start: ${spawnError.message}\n`));
      await output.close();
      resolve({ exitCode: code, signal, timedOut, aborted, durationMs: performance.now() - started, output });
    });
  });
  const release = () => {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  };
  return { pid: child.pid, done, kill, release };
}
