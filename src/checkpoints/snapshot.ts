import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import type { ShadowRepo } from './shadow_repo.js';
import { MAX_FILE_BYTES, type SkippedFile, type WorkspaceWalker } from './walk.js';

/**
 * What a store remembers of its shadow index between snapshots: the paths in it and the tree it
 * makes, valid while the index file is the one lathe last wrote (another process may write it).
 */
export interface IndexMemory {
  stamp: string;
  paths: Set<string>;
  tree?: string;
}

/** The tree of the workspace as it is now, and the files left out of it. */
export interface TreeSnapshot {
  tree: string;
  skipped: SkippedFile[];
}

/** How many unreadable files one snapshot steps over before it gives up. */
const MAX_UNREADABLE = 50;

export const splitNul = (text: string): string[] => text.split('\0').filter((p) => p.length > 0);

/** The index file's identity (size, time, inode), to know whether someone else wrote it. */
export function indexStamp(repo: ShadowRepo): string {
  const stat = lstatSync(repo.indexFile, { throwIfNoEntry: false });
  return stat ? `${stat.size}:${stat.mtimeMs}:${stat.ino}` : 'none';
}

/**
 * Brings the shadow index to the workspace as the walk finds it, and writes its tree. Only what
 * changed goes to git: new files (from folders the walk read again), files git finds modified or
 * gone (`diff-files`, by their stats), and files no longer in the walk; git hashes only those.
 */
export async function snapshotTree(
  repo: ShadowRepo,
  walker: WorkspaceWalker,
  memory: IndexMemory | undefined,
): Promise<TreeSnapshot & { memory: IndexMemory }> {
  const walked = walker.walk();
  const skipped = [...walked.skipped];
  const known = memory && memory.stamp === indexStamp(repo) ? memory : await readIndex(repo);
  const modified =
    known.paths.size > 0 ? splitNul((await repo.git(['diff-files', '--name-only', '-z'])).stdout) : [];
  const add: string[] = [];
  for (const path of walked.files) if (!known.paths.has(path)) add.push(path);
  for (const path of modified) {
    if (!walked.files.has(path) || !known.paths.has(path)) continue;
    // A file that grew past the limit inside a folder the walk did not read again.
    const size = lstatSync(join(repo.workTree, path), { throwIfNoEntry: false })?.size ?? 0;
    if (size > MAX_FILE_BYTES) {
      skipped.push({ path, reason: `over 5 MB (${(size / 1024 / 1024).toFixed(1)} MB)` });
      walked.files.delete(path);
    } else add.push(path);
  }
  const remove = [...known.paths].filter((path) => !walked.files.has(path));
  if (add.length === 0 && remove.length === 0 && known.tree)
    return { tree: known.tree, skipped, memory: known };

  if (remove.length > 0)
    await repo.git(['update-index', '--force-remove', '-z', '--stdin'], { input: joinNul(remove) });
  const unreadable = add.length > 0 ? await addFiles(repo, add) : [];
  for (const { path } of unreadable) walked.files.delete(path);
  skipped.push(...unreadable);
  const tree = (await repo.git(['write-tree'])).stdout.trim();
  // Unreadable files keep their last version in the index, and so in the tree.
  const paths = new Set(walked.files);
  for (const { path } of unreadable) if (known.paths.has(path)) paths.add(path);
  return { tree, skipped, memory: { stamp: indexStamp(repo), paths, tree } };
}

/** The paths of the shadow index as git lists them (after another process wrote it, or at start). */
async function readIndex(repo: ShadowRepo): Promise<IndexMemory> {
  const stamp = indexStamp(repo);
  if (stamp === 'none') return { stamp, paths: new Set() };
  const listed = await repo.git(['ls-files', '-z']);
  return { stamp, paths: new Set(splitNul(listed.stdout)) };
}

/**
 * Adds (or refreshes) files in the index; git stops at a file it cannot read, which is then left
 * out and named, and the rest go in again.
 */
async function addFiles(repo: ShadowRepo, paths: string[]): Promise<SkippedFile[]> {
  const left: SkippedFile[] = [];
  let pending = paths;
  for (;;) {
    try {
      await repo.git(['update-index', '--add', '--remove', '-z', '--stdin'], { input: joinNul(pending) });
      return left;
    } catch (error) {
      const message = (error as Error).message;
      const path = /Unable to process path (.+?)(?: \/ |$)/.exec(message)?.[1];
      if (!path || !pending.includes(path) || left.length >= MAX_UNREADABLE) throw error;
      left.push({ path, reason: 'not readable' });
      pending = pending.filter((p) => p !== path);
      if (pending.length === 0) return left;
    }
  }
}

const joinNul = (paths: readonly string[]): string => paths.map((p) => `${p}\0`).join('');
