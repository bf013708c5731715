import { spawn } from 'node:child_process';

export interface CollectedRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Set when the program could not be started (missing, not executable) or was aborted. */
  error?: NodeJS.ErrnoException;
}

/** Runs a short program to its end and collects its output; never throws. */
export function collectProcess(argv: string[], signal?: AbortSignal): Promise<CollectedRun> {
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], signal });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', (error: NodeJS.ErrnoException) => resolve({ code: null, stdout, stderr, error }));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
