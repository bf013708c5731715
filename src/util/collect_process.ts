import { spawn } from 'node:child_process';

export interface CollectedRun {
  /** The exit code; null when the program did not start or was ended by a signal (a timeout). */
  code: number | null;
  stdout: string;
  stderr: string;
  /** Set when the program could not be started (missing, not executable) or was aborted. */
  error?: NodeJS.ErrnoException;
}

export interface CollectOptions {
  signal?: AbortSignal;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Ends the program (SIGTERM) when it runs longer than this. */
  timeoutMs?: number;
  /** Written to the program's standard input, which is then closed (default: no input). */
  input?: string | Buffer;
}

/** Runs a short program to its end and collects its output; never throws. */
export function collectProcess(argv: string[], options: CollectOptions = {}): Promise<CollectedRun> {
  const { signal, cwd, env, timeoutMs, input } = options;
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), {
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      signal,
      cwd,
      env,
      timeout: timeoutMs,
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    if (input !== undefined && child.stdin) {
      // A program that exits without reading all of it closes the pipe: that is its answer, not ours.
      child.stdin.on('error', () => {});
      child.stdin.end(input);
    }
    child.on('error', (error: NodeJS.ErrnoException) => resolve({ code: null, stdout, stderr, error }));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
