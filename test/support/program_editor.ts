import { spawn } from 'node:child_process';

/** A command a terminal ran, and how it ended. */
export interface TerminalRun {
  argv: string[];
  cwd: string;
  /** Whether it was told to stop (timeout, interrupt, kill). */
  stopped: boolean;
  exitCode: number | null;
  signal: string | null;
}

/**
 * A terminal as an editor keeps one: each command a real process in its own group, its output
 * (stdout and stderr) gathered, at most `outputLimit` bytes of it kept (the latest), and the
 * whole group killed when it is told to stop. `runs` lists what it ran; `started` settles with
 * each start.
 */
export class ProcessTerminal {
  readonly runs: TerminalRun[] = [];
  private waiters: Array<(run: TerminalRun) => void> = [];

  run(argv: string[], cwd: string, stop: AbortSignal, outputLimit?: number) {
    const record: TerminalRun = { argv, cwd, stopped: false, exitCode: null, signal: null };
    this.runs.push(record);
    for (const waiter of this.waiters.splice(0)) waiter(record);
    return new Promise<{
      output: string;
      exitCode: number | null;
      signal: string | null;
      truncated: boolean;
    }>((resolve) => {
      const child = spawn(argv[0], argv.slice(1), { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = Buffer.alloc(0);
      let truncated = false;
      const take = (chunk: Buffer) => {
        output = Buffer.concat([output, chunk]);
        if (outputLimit !== undefined && output.length > outputLimit) {
          output = output.subarray(output.length - outputLimit);
          truncated = true;
        }
      };
      child.stdout.on('data', take);
      child.stderr.on('data', take);
      const kill = () => {
        record.stopped = true;
        try {
          process.kill(-(child.pid as number), 'SIGKILL');
        } catch {
          // already gone
        }
      };
      stop.addEventListener('abort', kill, { once: true });
      if (stop.aborted) kill();
      child.on('close', (code, signal) => {
        stop.removeEventListener('abort', kill);
        record.exitCode = code;
        record.signal = signal;
        resolve({ output: output.toString('utf8'), exitCode: code, signal, truncated });
      });
    });
  }

  /** Settles when the next command starts. */
  nextStart(): Promise<TerminalRun> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}
