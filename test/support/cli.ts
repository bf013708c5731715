import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built command; `npm test` builds before testing. */
export const LATHE_BIN = fileURLToPath(new URL('../../dist/bin/lathe.js', import.meta.url));

export function lathe(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {},
) {
  const result = spawnSync(process.execPath, [LATHE_BIN, ...args], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    input: options.input ?? '',
    encoding: 'utf8',
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Runs the built command without blocking the event loop, so a server in this process (the
 * fake model server) can answer it.
 */
export function latheAsync(args: string[], options: AsyncRunOptions = {}): Promise<AsyncRunResult> {
  return nodeAsync(LATHE_BIN, args, options);
}

interface AsyncRunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  input?: string;
  onSpawn?: (child: ChildProcess) => void;
}

interface AsyncRunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a Node script (this Node) without blocking the event loop; `env` adds to this process's. */
export function nodeAsync(
  script: string,
  args: string[],
  options: AsyncRunOptions = {},
): Promise<AsyncRunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    options.onSpawn?.(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}
