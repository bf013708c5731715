import { basename, dirname, join } from 'node:path';
import { gitlinks, gitRecords, holdsRepository, inGitWorkTree, streamGit, submodules } from './git_run.js';

/**
 * Which of `names` (entries of `dir`) git's ignore rules exclude, by `git check-ignore`: a tracked
 * file, or a folder holding one, is not excluded. Undefined when git cannot answer here.
 */
export async function gitIgnoredNames(
  dir: string,
  names: readonly string[],
  signal?: AbortSignal,
): Promise<Set<string> | undefined> {
  if (!inGitWorkTree(dir)) return undefined;
  if (names.length === 0) return new Set();
  const input = names.map((name) => `${name}\0`).join('');
  // check-ignore exits 1 when nothing is ignored: that is an answer too.
  const ignored = new Set<string>();
  const run = await streamGit(
    ['check-ignore', '-z', '--stdin'],
    dir,
    signal,
    (name) => void ignored.add(name),
    { input },
  );
  return run.code === 0 || run.code === 1 ? ignored : undefined;
}

/** Whether git's ignore rules exclude the folder `dir` itself (and so everything in it). */
export async function gitIgnoresFolder(dir: string, signal?: AbortSignal): Promise<boolean> {
  const parent = dirname(dir);
  if (parent === dir || !inGitWorkTree(parent)) return false;
  return (await gitIgnoredNames(parent, [basename(dir)], signal))?.has(basename(dir)) ?? false;
}

/**
 * What git's rules exclude below `root`, as ripgrep ignore-file lines anchored at `root`: the
 * ignored untracked files and folders (`git ls-files --others --ignored --directory`), and those
 * of each repository nested in it (a clone, a submodule) by its own rules. As in glob's listing,
 * a repository added without `.gitmodules` (a gitlink only the index names) and one git cannot
 * read are left out whole. Undefined when git cannot answer for `root`.
 */
export async function gitIgnoreLines(root: string, signal?: AbortSignal): Promise<string[] | undefined> {
  const [ignored, untrackedRepos, links, registered] = await Promise.all([
    gitRecords(
      ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'],
      root,
      signal,
    ),
    // `*/` matches nothing but the entries git shows for nested repositories.
    gitRecords(['ls-files', '-z', '--others', '--exclude-standard', '--', '*/'], root, signal),
    gitlinks(root, signal),
    submodules(root, signal),
  ]);
  if (!ignored || !untrackedRepos) return undefined;
  const lines = ignored.map(ignoreLine);
  for (const link of links) if (!registered.includes(link)) lines.push(ignoreLine(`${link}/`));
  const nested = [...untrackedRepos.map((dir) => dir.slice(0, -1)), ...registered];
  for (const dir of nested) {
    if (!holdsRepository(join(root, dir))) continue;
    const inner = await gitIgnoreLines(join(root, dir), signal);
    if (inner) for (const line of inner) lines.push(`/${escapeGlob(dir)}${line}`);
    else lines.push(ignoreLine(`${dir}/`));
  }
  return lines;
}

/** An ignore-file line that matches exactly `path` (a folder when it ends with `/`) below the root. */
function ignoreLine(path: string): string {
  return `/${escapeGlob(path)}`;
}

/**
 * Escapes every character ripgrep's ignore globs give a meaning (`*?[]{}\!#`, and spaces, which
 * it would trim at the end). A line break cannot be written in a line: `?` stands for it.
 */
function escapeGlob(path: string): string {
  return path.replace(/[\\*?[\]{}!# ]/g, '\\$&').replace(/[\r\n]/g, '?');
}
