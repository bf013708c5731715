import { lstatSync, realpathSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import { dirname, join } from 'node:path';
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
 * Turns the workspace from tree `from` (a snapshot of it as it is now, which the shadow index
 * holds) into tree `to`: files that differ are written back by git with their modes, files that
 * `to` lacks are removed, and files kept out of `from` (`keep`) are not touched.
 */
export async function switchTree(
  repo: ShadowRepo,
  from: string,
  to: string,
  keep: ReadonlySet<string>,
): Promise<TreeChange> {
  const listed = splitNul(
    (await repo.git(['diff-tree', '-r', '-z', '--no-renames', '--name-status', from, to])).stdout,
  );
  const write: string[] = [];
  const remove: string[] = [];
  const leftAlone: string[] = [];
  for (let i = 0; i + 1 < listed.length; i += 2) {
    const [status, path] = [listed[i], listed[i + 1]];
    if (keep.has(path)) leftAlone.push(path);
    else if (status === 'D') remove.push(path);
    else write.push(path);
  }
  // The index moves to `to` (a two-way merge keeps what git knows of unchanged files).
  await repo.git(['read-tree', '-m', from, to]);
  for (const path of remove) await removeFile(repo.workTree, path);
  if (write.length > 0)
    await repo.git(['checkout-index', '-u', '-f', '-z', '--stdin'], {
      input: write.map((p) => `${p}\0`).join(''),
    });
  return { written: write.length, removed: remove.length, leftAlone };
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
