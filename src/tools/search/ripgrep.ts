import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

let cachedPath: string | undefined;

/** The ripgrep binary: the one shipped with @vscode/ripgrep, else `rg` on PATH. */
export async function ripgrepPath(): Promise<string> {
  if (cachedPath) return cachedPath;
  try {
    const { rgPath } = await import('@vscode/ripgrep');
    if (existsSync(rgPath)) cachedPath = rgPath;
  } catch {
    // fall through to PATH
  }
  cachedPath ??= 'rg';
  return cachedPath;
}

/** Flags every lathe search shares: hidden files, .gitignore honoured even outside git, never .git itself. */
export const COMMON_RG_FLAGS = ['--hidden', '--no-require-git', '--glob', '!.git', '--no-config'];

export interface RipgrepRun {
  lines: string[];
  /** More output existed past `maxLines` (ripgrep was stopped). */
  truncated: boolean;
  exitCode: number | null;
  stderr: string;
}

/**
 * Runs ripgrep and collects stdout lines, skipping the first `skip` and stopping (killing rg)
 * once `maxLines` are kept, so a search with millions of hits never sits in memory. `transform`
 * rewrites each line, or drops it (undefined) before it counts.
 */
export async function runRipgrep(
  args: string[],
  options: {
    cwd: string;
    signal?: AbortSignal;
    maxLines: number;
    skip?: number;
    transform?: (line: string) => string | undefined;
  },
): Promise<RipgrepRun> {
  const rg = await ripgrepPath();
  return new Promise((resolve, reject) => {
    const child = spawn(rg, args, {
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      signal: options.signal,
    });
    const lines: string[] = [];
    let skip = options.skip ?? 0;
    let truncated = false;
    let pending = '';
    let stderr = '';
    const take = (raw: string) => {
      if (truncated) return;
      const line = options.transform ? options.transform(raw) : raw;
      if (line === undefined) return;
      if (skip > 0) {
        skip--;
        return;
      }
      if (lines.length >= options.maxLines) {
        truncated = true;
        child.kill('SIGTERM');
        return;
      }
      lines.push(line);
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (truncated) return;
      const parts = (pending + chunk).split('\n');
      pending = parts.pop() ?? '';
      for (const part of parts) take(part);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 10_000) stderr += chunk;
    });
    child.on('error', (error) => {
      if (options.signal?.aborted) resolve({ lines, truncated: true, exitCode: null, stderr: 'cancelled' });
      else reject(error);
    });
    child.on('close', (code) => {
      if (pending) take(pending);
      resolve({ lines, truncated, exitCode: truncated ? 0 : code, stderr });
    });
  });
}

/** ripgrep's own error message, cleaned for the model. */
export function ripgrepError(stderr: string): string {
  return stderr
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(0, 8)
    .join('\n');
}
