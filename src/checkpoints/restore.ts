import { lstatSync, realpathSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { FileEntry, FileMode } from './fast_import.js';
import type { ShadowRepo } from './shadow_repo.js';
import { splitNul } from './snapshot.js';

/** What a restore changed in the workspace. */
export interface TreeChange {
  /** Files written back (changed since, or deleted since). */
  written: number;
  /** Files removed (created since). */
  removed: number;
  /** Files left as they are: too large or unreadable now, so not in the checkpoint of the present. */
  leftAlone: string[];
}

/**
 * Turns the workspace from tree `from` (a snapshot of it as it is now) into tree `to`: files that
 * differ are written back by git with their modes, files that `to` lacks are removed, and files
 * kept out of `from` (`keep`) are not touched. Also returns each path that differs as `to` has it
 * (undefined: not in `to`).
 */
export async function switchTree(
  repo: ShadowRepo,
  from: string,
  to: string,
  keep: ReadonlySet<string>,
): Promise<{ change: TreeChange; files: Map<string, FileEntry | undefined> }> {
  const listed = splitNul((await repo.git(['diff-tree', '-r', '-z', '--no-renames', from, to])).stdout);
  const files = new Map<string, FileEntry | undefined>();
  const write: string[] = [];
  const remove: string[] = [];
  const leftAlone: string[] = [];
  // Raw rows: ":<old mode> <new mode> <old id> <new id> <status>", then the path.
  for (let i = 0; i + 1 < listed.length; i += 2) {
    const [, mode, , sha, status] = listed[i].slice(1).split(' ');
    const path = listed[i + 1];
    const entry = status === 'D' ? undefined : { mode: mode as FileMode, sha };
    files.set(path, entry);
    if (keep.has(path)) leftAlone.push(path);
    else if (entry) write.push(`${entry.mode} ${entry.sha}\t${path}\0`);
    else remove.push(path);
  }
  for (const path of remove) await removeFile(repo.workTree, path);
  if (write.length > 0) {
    // An index of the files to write alone, so git reads and writes no more than them.
    const indexFile = join(repo.gitDir, `restore-index.${process.pid}`);
    try {
      await repo.git(['update-index', '-z', '--index-info'], { input: write.join(''), indexFile });
      await repo.git(['checkout-index', '-a', '-f'], { indexFile });
    } finally {
      await fs.rm(indexFile, { force: true });
    }
  }
  return { change: { written: write.length, removed: remove.length, leftAlone }, files };
}

/**
 * Removes a file the checkpoint lacks, and the folders it leaves empty, up to the workspace.
 * Never through a symlink: a folder replaced by a link since is not followed out of the tree.
 */
async function removeFile(root: string, path: string): Promise<void> {
  const parts = path.split('/');
  const realRoot = realpathSync(root);
  const parent = join(realRoot, ...parts.slice(0, -1));
  try {
    if (realpathSync(parent) !== parent) return;
  } catch {
    return; // its folder is gone already
  }
  const abs = join(parent, parts[parts.length - 1]);
  const stat = lstatSync(abs, { throwIfNoEntry: false });
  if (!stat || stat.isDirectory()) return;
  await fs.rm(abs, { force: true });
  for (let dir = parent; dir !== realRoot && dir.startsWith(realRoot); dir = dirname(dir)) {
    try {
      await fs.rmdir(dir);
    } catch {
      break; // not empty (or not ours to remove)
    }
  }
}
