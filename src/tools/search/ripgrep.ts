import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

/**
 * Flags every lathe search shares: hidden files, .gitignore honoured even outside git, never
 * .git itself, and only git's ignore files (not ripgrep's own .ignore and .rgignore).
 */
export const COMMON_RG_FLAGS = [
  '--hidden',
  '--no-require-git',
  '--glob',
  '!.git',
  '--no-config',
  '--no-ignore-dot',
];

/** Starts ripgrep with its output piped. */
function startRipgrep(rg: string, args: string[], options: { cwd: string; signal?: AbortSignal }) {
  const child = spawn(rg, args, {
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    signal: options.signal,
  });
  return { child, stdout: child.stdout, stderr: child.stderr };
}

/**
 * Writes ignore-file lines where only this user can read them, for ripgrep's `--ignore-file`
 * (a pipe cannot serve: Node's are sockets, which /dev/fd cannot open); `remove` deletes them.
 */
function writeIgnoreFile(lines: readonly string[]): { path: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'lathe-ignore-'));
  const path = join(dir, 'ignored');
  writeFileSync(path, lines.map((line) => `${line}\n`).join(''), { mode: 0o600 });
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

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
    /** Ignore-file lines (gitignore syntax, anchored at `cwd`) ripgrep applies. */
    ignoreLines?: readonly string[];
  },
): Promise<RipgrepRun> {
  const rg = await ripgrepPath();
  if (!options.ignoreLines) return collectRipgrep(rg, args, options);
  const file = writeIgnoreFile(options.ignoreLines);
  try {
    const run = await collectRipgrep(rg, ['--ignore-file', file.path, ...args], options);
    // ripgrep goes on without an ignore file it cannot read: here that would show ignored files.
    if (run.stderr.includes(file.path)) {
      return {
        lines: [],
        truncated: false,
        exitCode: 2,
        stderr: `cannot apply git's ignore rules: ${run.stderr}`,
      };
    }
    return run;
  } finally {
    file.remove();
  }
}

function collectRipgrep(
  rg: string,
  args: string[],
  options: Omit<Parameters<typeof runRipgrep>[1], 'ignoreLines'>,
): Promise<RipgrepRun> {
  return new Promise((resolve, reject) => {
    const { child, stdout, stderr: errors } = startRipgrep(rg, args, options);
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
    stdout.setEncoding('utf8');
    stdout.on('data', (chunk: string) => {
      if (truncated) return;
      const parts = (pending + chunk).split('\n');
      pending = parts.pop() ?? '';
      for (const part of parts) take(part);
    });
    errors.setEncoding('utf8');
    errors.on('data', (chunk: string) => {
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
