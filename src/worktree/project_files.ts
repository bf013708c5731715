import { existsSync, readFileSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import { dirname, join } from 'node:path';
import picomatch from 'picomatch';
import { WorktreeError } from './errors.js';
import type { RepositoryGit } from './git.js';

/** `.agents/worktree.json` of a repository: files to copy into each new worktree, commands to set it up. */
export interface WorktreeSettings {
  /** Globs of the main checkout's untracked or ignored files to copy (`.env`, `config/*.local.json`). */
  include: string[];
  /** Shell commands run once in each new worktree, in order (`npm ci`). */
  setup: string[];
  /** The file they came from, for messages. */
  path?: string;
}

export function worktreeSettingsPath(repoRoot: string): string {
  return join(repoRoot, '.agents', 'worktree.json');
}

const stringList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string' && item.trim() !== '');

/** Reads `.agents/worktree.json` of the main checkout; none is no settings, a malformed one an error. */
export function readWorktreeSettings(repoRoot: string): WorktreeSettings {
  const path = worktreeSettingsPath(repoRoot);
  if (!existsSync(path)) return { include: [], setup: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new WorktreeError(`${path} is not valid JSON (${(error as Error).message}); fix or remove it`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new WorktreeError(`${path} must hold an object: {"include": [globs], "setup": [commands]}`);
  const { include = [], setup = [], ...rest } = parsed as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0)
    throw new WorktreeError(
      `${path}: unknown key ${unknown.map((k) => `"${k}"`).join(', ')} (known: include, setup)`,
    );
  const commands = typeof setup === 'string' ? [setup] : setup;
  if (!stringList(include)) throw new WorktreeError(`${path}: "include" must be a list of globs`);
  if (!stringList(commands))
    throw new WorktreeError(`${path}: "setup" must be a command or a list of commands`);
  return { include, setup: commands, path };
}

/** NUL-separated paths git listed. */
const listed = (output: string) => output.split('\0').filter((path) => path.length > 0);

/**
 * Copies the main checkout's files that `globs` match into the worktree: untracked files, ignored
 * files, and ignored folders matched by name as a whole (`node_modules`). A path the worktree
 * already has (a tracked file) is left as checked out. Returns what was copied.
 */
export async function copyIncluded(
  git: RepositoryGit,
  repoRoot: string,
  dir: string,
  globs: readonly string[],
): Promise<string[]> {
  if (globs.length === 0) return [];
  const matches = picomatch([...globs], { dot: true });
  const untracked = await git.output(
    repoRoot,
    ['ls-files', '-z', '--others', '--exclude-standard'],
    'cannot list the untracked files to include',
  );
  const ignored = await git.output(
    repoRoot,
    ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'],
    'cannot list the ignored files to include',
  );
  const copied: string[] = [];
  for (const entry of [...listed(untracked), ...listed(ignored)]) {
    const path = entry.replace(/\/$/, '');
    if (!matches(path) || existsSync(join(dir, path))) continue;
    await fs.mkdir(dirname(join(dir, path)), { recursive: true });
    await fs.cp(join(repoRoot, path), join(dir, path), {
      recursive: true,
      verbatimSymlinks: true,
      preserveTimestamps: true,
    });
    copied.push(path);
  }
  return copied.sort();
}

/** How one setup command ended. */
export interface SetupRun {
  exitCode: number | null;
  /** Its output (or the end of it). */
  output: string;
}

/**
 * Runs one setup command in the new worktree `dir`. It must run in the sandbox, with `dir` as
 * its writable root: a runner that cannot throws (a WorktreeError saying why) and the worktree
 * is not made.
 */
export type SetupRunner = (command: string, dir: string) => Promise<SetupRun>;

/** The last lines of a command's output, for an error message. */
function tail(output: string): string {
  const lines = output.trimEnd().split('\n');
  const kept = lines.slice(-8).join('\n');
  return kept.length > 1_500 ? `…${kept.slice(-1_500)}` : kept;
}

/** Runs the setup commands in order; the first that fails is a WorktreeError with its output's end. */
export async function runSetupCommands(
  commands: readonly string[],
  dir: string,
  run: SetupRunner,
  source: string,
): Promise<void> {
  for (const command of commands) {
    const outcome = await run(command, dir);
    if (outcome.exitCode !== 0) {
      const status = outcome.exitCode === null ? 'was stopped' : `exited with status ${outcome.exitCode}`;
      const output = tail(outcome.output);
      throw new WorktreeError(
        `setup command "${command}" (${source}) ${status}${output ? `:\n${output}` : ''}`,
      );
    }
  }
}
