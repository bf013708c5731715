import { spawn } from 'node:child_process';
import { OutputCapture } from './output_capture.js';
import { newProcessMarker } from './process_marker.js';

export interface ProcessOutcome {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  /** Stopped because its output passed the cap (`output.cut`). */
  outputCut: boolean;
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
/**
 * How long output may still arrive once the command's own process has exited: a process that
 * escaped every sweep and holds the output pipes open must not keep the call waiting.
 */
const DRAIN_MS = 500;

/** Waits for `promise`, or `ms` at most. */
async function firstOf(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

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
 * interleaved as they come) streamed to `outputPath`, at most `maxOutputBytes` of it (past that
 * the command is stopped). Timeout, abort, `kill` and the end of the command's own process end
 * the whole tree: the group, and the processes that left it (found by the command's marker).
 */
export function startProcess(options: {
  argv: string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
  outputPath: string;
  keepBytes: number;
  maxOutputBytes?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
}): RunningProcess {
  const started = performance.now();
  const marker = newProcessMarker();
  let outputCut = false;
  const output = new OutputCapture(options.outputPath, options.keepBytes, options.maxOutputBytes, () => {
    outputCut = true;
    kill();
  });
  const child = spawn(options.argv[0], options.argv.slice(1), {
    cwd: options.cwd,
    env: { ...(options.env ?? process.env), [marker.name]: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let timedOut = false;
  let aborted = false;
  let killTimer: NodeJS.Timeout | undefined;
  const endTree = (signal: NodeJS.Signals) => {
    signalGroup(child.pid, signal);
    return marker.signal(signal);
  };
  function kill() {
    void endTree('SIGTERM');
    killTimer ??= setTimeout(() => void endTree('SIGKILL'), GRACE_MS);
  }
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
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let pipesClosed!: () => void;
    const closed = new Promise<void>((resolveClosed) => {
      pipesClosed = resolveClosed;
    });
    let finished = false;
    const finish = async () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (killTimer) clearTimeout(killTimer);
      // Whatever still holds the pipes is not waited for any longer.
      child.stdout.destroy();
      child.stderr.destroy();
      if (spawnError) output.write(Buffer.from(`failed to start: ${spawnError.message}\n`));
      await output.close();
      resolve({
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        timedOut,
        aborted,
        outputCut,
        durationMs: performance.now() - started,
        output,
      });
    };
    child.on('error', (error) => {
      spawnError = error;
    });
    // The command's own process is gone: nothing it started may live on (or keep its output
    // pipes open). Its output is read until the pipes close, for a short drain at most.
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      signalGroup(child.pid, 'SIGKILL');
      void marker
        .signal('SIGKILL')
        .then(() => firstOf(closed, DRAIN_MS))
        .then(finish);
    });
    // Without an 'exit' first the process never started: nothing to sweep.
    child.on('close', () => {
      pipesClosed();
      if (!exit) void finish();
    });
  });
  const release = () => {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  };
  return { pid: child.pid, done, kill, release };
}
