import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { listGitFiles } from './git_listing.js';
import { inGitWorkTree } from './git_run.js';
import type { PathPattern } from './path_pattern.js';
import { COMMON_RG_FLAGS, ripgrepError, ripgrepPath } from './ripgrep.js';
import { streamRecords } from './stream_records.js';

export interface ListingOptions {
  /** List what ignore rules exclude too (`.git` never). */
  includeIgnored: boolean;
  /** Lets git and ripgrep narrow their walk; the caller still matches each path. */
  pattern?: PathPattern;
  signal?: AbortSignal;
}

export type ListingResult = { ok: true } | { ok: false; error: string };

/**
 * A listed path that is a regular file or a link (git lists links as files): its modification
 * time; undefined for anything else (a tracked file since deleted, a submodule's folder).
 */
export function fileTime(root: string, path: string): number | undefined {
  // A listed path is already normal: joined as text, not by `join`, which costs as much as the stat.
  const stats = lstatSync(root.endsWith('/') ? root + path : `${root}/${path}`, { throwIfNoEntry: false });
  if (!stats || !(stats.isFile() || stats.isSymbolicLink())) return undefined;
  return stats.mtimeMs;
}

/** Whether a listed path is there as a file (see `fileTime`). */
export function isListedFile(root: string, path: string): boolean {
  return fileTime(root, path) !== undefined;
}

/** Whether a relative path names something inside a `.git` folder (or a `.git` file itself). */
export function insideGit(relative: string): boolean {
  // One scan first: nearly no path holds `.git` at all (the four checks cost more on a long listing).
  if (!relative.includes('.git')) return false;
  return (
    relative === '.git' ||
    relative.startsWith('.git/') ||
    relative.includes('/.git/') ||
    relative.endsWith('/.git')
  );
}

/**
 * The files below `root` that the search tools see, each relative to `root` with `/`, to
 * `onFile` as they are found. In a git work tree git decides, as `git ls-files --cached --others
 * --exclude-standard` does (repositories nested in it by their own rules); elsewhere ripgrep
 * applies the .gitignore files it finds. Never anything inside `.git`.
 */
export async function listFiles(
  root: string,
  options: ListingOptions,
  onFile: (path: string) => void,
): Promise<ListingResult> {
  const keep = (path: string) => {
    if (!insideGit(path)) onFile(path);
  };
  if (inGitWorkTree(root)) {
    const listing = await listGitFiles(
      root,
      {
        includeIgnored: options.includeIgnored,
        pathspecs: options.pattern?.gitPathspecs,
        signal: options.signal,
      },
      keep,
    );
    if (listing.answered) {
      for (const dir of listing.nested) {
        const nestedOptions = { includeIgnored: options.includeIgnored, signal: options.signal };
        await listFiles(join(root, dir), nestedOptions, (path) => keep(`${dir}/${path}`));
      }
      return { ok: true };
    }
  }
  return listWithRipgrep(root, options, keep);
}

async function listWithRipgrep(
  root: string,
  options: ListingOptions,
  onFile: (path: string) => void,
): Promise<ListingResult> {
  const args = [...COMMON_RG_FLAGS, '--files', '--null'];
  if (options.includeIgnored) args.push('--no-ignore');
  const nameGlob = options.pattern?.nameGlob;
  if (nameGlob) args.push('--type-add', `pattern:${nameGlob}`, '--type', 'pattern');
  let listed = false;
  const run = await streamRecords(
    [await ripgrepPath(), ...args],
    { cwd: root, signal: options.signal },
    (path) => {
      listed = true;
      onFile(path);
      return undefined;
    },
  );
  if (run.error && !options.signal?.aborted) return { ok: false, error: run.error.message };
  // Exit 2 with files listed is a warning (a .gitignore line ripgrep cannot read): the list holds.
  if (run.code === 2 && !listed) return { ok: false, error: ripgrepError(run.stderr) };
  return { ok: true };
}
