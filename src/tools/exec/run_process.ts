import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { OutputCapture } from './output_capture.js';
import { newProcessMarker, type ProcessMarker } from './process_marker.js';

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
 * Once the command's own process has exited, its output is read until the pipes close or no
 * byte has come for this long: a process that escaped every sweep and holds the pipes open must
 * not keep the call waiting. Output still queued for the file does not count as quiet.
 */
const DRAIN_MS = 500;
/** The longest that drain lasts when something that escaped keeps printing. */
const MAX_DRAIN_MS = 5_000;

/** Tells when a process's output has settled: its pipes closed, or quiet for `DRAIN_MS`. */
class OutputActivity {
  private lastAt = performance.now();
  private waitingForFile = 0;

  seen(): void {
    this.lastAt = performance.now();
  }

  /** The producer is paused until the file catches up; it is not quiet meanwhile. */
  paused(): () => void {
    this.waitingForFile++;
    return () => {
      this.waitingForFile--;
      this.seen();
    };
  }

  settled(closed: Promise<void>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const since = performance.now();
    const quiet = new Promise<void>((resolve) => {
      const check = () => {
        const idle = performance.now() - this.lastAt;
        const long = performance.now() - since >= MAX_DRAIN_MS;
        if (this.waitingForFile === 0 && (idle >= DRAIN_MS || long)) resolve();
        else timer = setTimeout(check, Math.max(DRAIN_MS - idle, 20));
      };
      timer = setTimeout(check, DRAIN_MS);
    });
    return Promise.race([closed, quiet]).finally(() => clearTimeout(timer));
  }
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

/** Why a process ended early, set as it happens. */
interface Ending {
  timedOut: boolean;
  aborted: boolean;
  outputCut: boolean;
}

/** Streams the child's stdout and stderr into `output`, pausing a pipe until the file catches up. */
function streamOutput(
  child: ChildProcessByStdio<null, Readable, Readable>,
  output: OutputCapture,
  activity: OutputActivity,
): void {
  for (const stream of [child.stdout, child.stderr]) {
    stream.on('data', (chunk: Buffer) => {
      activity.seen();
      if (!output.write(chunk)) {
        stream.pause();
        const resumed = activity.paused();
        output.onDrain(() => {
          resumed();
          stream.resume();
        });
      }
    });
  }
}

/**
 * The outcome once the command's own process is gone, its tree swept and its output read (or it
 * never started); `stopWatching` ends the timeout, the abort listener and the kill timer.
 */
function outcome(
  child: ChildProcessByStdio<null, Readable, Readable>,
  parts: {
    marker: ProcessMarker;
    activity: OutputActivity;
    output: OutputCapture;
    ending: Ending;
    started: number;
  },
  stopWatching: () => void,
): Promise<ProcessOutcome> {
  const { marker, activity, output, ending, started } = parts;
  return new Promise<ProcessOutcome>((resolve) => {
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
      stopWatching();
      // Whatever still holds the pipes is not waited for any longer.
      child.stdout.destroy();
      child.stderr.destroy();
      if (spawnError) output.write(Buffer.from(`failed to start: ${spawnError.message}\n`));
      await output.close();
      resolve({
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        ...ending,
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
        .then(() => activity.settled(closed))
        .then(finish);
    });
    // Without an 'exit' first the process never started: nothing to sweep.
    child.on('close', () => {
      pipesClosed();
      if (!exit) void finish();
    });
  });
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
  const ending: Ending = { timedOut: false, aborted: false, outputCut: false };
  const output = new OutputCapture(options.outputPath, options.keepBytes, options.maxOutputBytes, () => {
    ending.outputCut = true;
    kill();
  });
  const child = spawn(options.argv[0], options.argv.slice(1), {
    cwd: options.cwd,
    env: { ...(options.env ?? process.env), [marker.name]: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const activity = new OutputActivity();
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
        ending.timedOut = true;
        kill();
      }, options.timeoutMs)
    : undefined;
  const onAbort = () => {
    ending.aborted = true;
    kill();
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  // An abort that came while the command was being prepared (the sandbox probe) fires no event.
  if (options.signal?.aborted) onAbort();

  streamOutput(child, output, activity);
  const release = () => {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  };
  const done = outcome(child, { marker, activity, output, ending, started }, () => {
    release();
    if (killTimer) clearTimeout(killTimer);
  });
  return { pid: child.pid, done, kill, release };
}
