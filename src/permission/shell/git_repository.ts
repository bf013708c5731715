import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isInside, realPathOf } from '../paths.js';
import { repositoryConfigProblem } from './git_config.js';
import type { Subcommand } from './types.js';

/** Global options that choose the repository or work tree, with their value in the next word or after `=`. */
const PLACE_OPTIONS = new Set(['-C', '--git-dir', '--work-tree']);

interface GitPlace {
  /** `-C` folders, in order. */
  changes: string[];
  gitDir?: string;
  workTree?: string;
}

/** Reads git's global options up to the subcommand; undefined when one is only known at run time. */
function gitPlace(sub: Subcommand): GitPlace | undefined {
  const place: GitPlace = { changes: [] };
  const words = sub.words.slice(1);
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (word.dynamic) return undefined;
    if (!word.value.startsWith('-')) break;
    const [name, attached] = splitOption(word.value);
    if (!PLACE_OPTIONS.has(name)) continue;
    let text = attached;
    if (text === undefined) {
      const next = words[++i];
      if (next === undefined || next.dynamic) return undefined;
      text = next.value;
    }
    if (name === '-C') place.changes.push(text);
    else if (name === '--git-dir') place.gitDir = text;
    else place.workTree = text;
  }
  return place;
}

function splitOption(text: string): [string, string | undefined] {
  const eq = text.indexOf('=');
  return text.startsWith('--') && eq > 0 ? [text.slice(0, eq), text.slice(eq + 1)] : [text, undefined];
}

function kind(path: string): 'file' | 'directory' | undefined {
  try {
    const s = statSync(path);
    return s.isFile() ? 'file' : s.isDirectory() ? 'directory' : undefined;
  } catch {
    return undefined;
  }
}

/** A folder git would take for a repository itself (a bare one): HEAD, objects/ and refs/. */
function looksLikeGitDir(dir: string): boolean {
  return (
    kind(join(dir, 'HEAD')) === 'file' &&
    kind(join(dir, 'objects')) === 'directory' &&
    kind(join(dir, 'refs')) === 'directory'
  );
}

/** The folder a `.git` file (`gitdir: …`, worktrees and submodules) points to; the path itself otherwise. */
function followGitFile(path: string): string {
  if (kind(path) !== 'file') return path;
  try {
    const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(path, 'utf8'))?.[1]?.trim();
    return pointer ? resolve(dirname(path), pointer) : path;
  } catch {
    return path; // unreadable: git would fail too
  }
}

/** The repository git finds from `start`, as git searches: `.git` (folder or `gitdir:` file), then a bare repository, upwards. */
export function discoverGitDir(start: string): string | undefined {
  for (let dir = start; ; dir = dirname(dir)) {
    const dotGit = join(dir, '.git');
    const dotGitKind = kind(dotGit);
    if (dotGitKind === 'directory' && looksLikeGitDir(dotGit)) return dotGit;
    if (dotGitKind === 'file') return followGitFile(dotGit);
    if (looksLikeGitDir(dir)) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * Why this `git` subcommand is not read-only where it runs: it works on a repository other than
 * the workspace's (`-C`, `--git-dir`, `--work-tree`, a `cd` into a committed `evil.git/`), or the
 * repository's config names a program git may run (core.fsmonitor, core.pager, diff.external, a
 * filter, an include …). `cwds` are the folders it may start in; undefined when unknown.
 */
export function gitRepositoryProblem(
  sub: Subcommand,
  cwds: string[] | undefined,
  workspace: string,
): string | undefined {
  const place = gitPlace(sub);
  if (!place || cwds === undefined) return "git's repository is only known at run time";
  const workspaceGitDir = discoverGitDir(workspace);
  for (const cwd of cwds) {
    const folder = place.changes.reduce((dir, change) => resolve(dir, change), cwd);
    if (
      place.workTree !== undefined &&
      !isInside(realPathOf(resolve(folder, place.workTree)), realPathOf(workspace))
    )
      return `git --work-tree ${place.workTree} leaves the workspace`;
    const gitDir =
      place.gitDir !== undefined ? followGitFile(resolve(folder, place.gitDir)) : discoverGitDir(folder);
    if (gitDir === undefined) continue;
    if (workspaceGitDir === undefined || realPathOf(gitDir) !== realPathOf(workspaceGitDir))
      return `git works on another repository than the workspace's (${gitDir})`;
    const problem = repositoryConfigProblem(gitDir);
    if (problem) return problem;
  }
  return undefined;
}
