import { lstatSync, realpathSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { checkpointBytes } from './checkpoint_bytes.js';
import { isLinkMode, isRegularMode } from './file_stats.js';
import { writeLooseObject } from './loose_commit.js';
import { type TreeFile, writeLooseTree } from './loose_tree.js';
import type { FileRecord } from './records.js';
import type { SkippedFile } from './walk.js';

/** Files as they are now, stored one by one: what a checkpoint of some files holds. */
export interface FileCopies {
  /** The tree of the files that are there. */
  tree: string;
  /** Each file (relative with `/`): its mode and blob, or null when it is not there. */
  files: Record<string, FileRecord | null>;
  /** Files that could not be kept (too large, unreadable): a restore leaves them as they are. */
  skipped: SkippedFile[];
}

/**
 * A path of the workspace (real path `root`) from any path that names a file in it, relative
 * with `/`: undefined for a path outside it, in a `.git` folder, or under a folder never held.
 * Its folder is resolved (a workspace reached through a link is the same workspace); the file
 * itself is not followed.
 */
export function workspacePath(root: string, path: string, never: readonly string[] = []): string | undefined {
  let folder = dirname(path);
  try {
    folder = realpathSync(folder);
  } catch {
    // A folder not made yet: the call makes it, and the path is taken as given.
  }
  const abs = join(folder, basename(path));
  const rel = relative(root, abs);
  if (!rel || rel.startsWith(`..${sep}`) || rel === '..' || rel.startsWith(sep)) return undefined;
  if (never.some((skip) => abs === skip || abs.startsWith(`${skip}${sep}`))) return undefined;
  const parts = rel.split(sep);
  if (parts.includes('.git')) return undefined;
  return parts.join('/');
}

/** Whether any of the paths (relative to `root`) is a folder: its files are not named one by one. */
export function namesFolder(root: string, paths: Iterable<string>): boolean {
  for (const path of paths) {
    try {
      if (lstatSync(join(root, ...path.split('/')), { throwIfNoEntry: false })?.isDirectory()) return true;
    } catch {
      // a file on the way where a folder should be: no such path
    }
  }
  return false;
}

/**
 * Stores the files at `paths` (relative to `root`) as loose objects, with the tree of them,
 * reading each once: the cost is what the files cost, whatever the size of the workspace. A
 * path that is a folder now is left out, said so.
 */
export function copyFiles(gitDir: string, root: string, paths: Iterable<string>): FileCopies {
  const files: Record<string, FileRecord | null> = {};
  const present = new Map<string, TreeFile>();
  const skipped: SkippedFile[] = [];
  for (const path of paths) {
    const abs = join(root, ...path.split('/'));
    let stat: ReturnType<typeof lstatSync>;
    try {
      stat = lstatSync(abs, { throwIfNoEntry: false });
    } catch {
      stat = undefined; // a file on the way where a folder should be: no such file
    }
    if (!stat) {
      files[path] = null;
      continue;
    }
    if (!isRegularMode(stat.mode) && !isLinkMode(stat.mode)) {
      skipped.push({ path, reason: stat.isDirectory() ? 'a folder now' : 'not a file' });
      continue;
    }
    const bytes = checkpointBytes(abs, stat);
    if ('reason' in bytes) {
      skipped.push({ path, reason: bytes.reason });
      continue;
    }
    const { mode, data } = bytes;
    const sha = writeLooseObject(gitDir, 'blob', data);
    files[path] = [mode, sha];
    present.set(path, { mode, sha });
  }
  return { tree: writeLooseTree(gitDir, present), files, skipped };
}
