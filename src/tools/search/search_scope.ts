import { basename, dirname } from 'node:path';
import { pathKind } from '../shared/paths.js';
import { gitIgnoreLines, gitIgnoresFolder } from './git_ignored.js';
import { inGitWorkTree } from './git_run.js';

/** Where ripgrep searches and by which ignore rules. */
export interface SearchScope {
  /** ripgrep's working folder: result paths are relative to it. */
  root: string;
  /** The one file searched (named explicitly: searched whatever ignore rules say). */
  file?: string;
  /** ripgrep applies no ignore files of its own (`--no-ignore`). */
  noIgnore: boolean;
  /** git's ignore decisions, as ignore-file lines anchored at `root`. */
  ignoreLines?: string[];
  /** git ignores `root` itself, so there is nothing to search. */
  allIgnored: boolean;
}

/**
 * The scope of a search of `target`. In a git work tree git decides what is ignored (exactly
 * as `git ls-files --exclude-standard` would: nested .gitignore files, negations,
 * .git/info/exclude, the global excludes file, tracked files never ignored) and ripgrep is told
 * each ignored entry; outside one, or when git cannot answer, ripgrep applies .gitignore files.
 */
export async function searchScope(
  target: string,
  includeIgnored: boolean,
  signal?: AbortSignal,
): Promise<SearchScope> {
  if ((await pathKind(target)).kind !== 'directory') {
    return { root: dirname(target), file: basename(target), noIgnore: true, allIgnored: false };
  }
  const scope = { root: target, noIgnore: includeIgnored, allIgnored: false };
  if (includeIgnored || !inGitWorkTree(target)) return scope;
  const [allIgnored, ignoreLines] = await Promise.all([
    gitIgnoresFolder(target, signal),
    gitIgnoreLines(target, signal),
  ]);
  if (allIgnored) return { ...scope, allIgnored };
  return ignoreLines ? { ...scope, noIgnore: true, ignoreLines } : scope;
}
