import { lstatSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { blobSha, type FileChange, type FileEntry, type FileMode, readBlob } from './fast_import.js';
import type { ShadowRepo } from './shadow_repo.js';
import { MAX_FILE_BYTES, type SkippedFile, type WorkspaceWalker } from './walk.js';

/**
 * What a store knows of the workspace between snapshots: the files of a tree it wrote, with the
 * stats each had then. A file whose stats are the same is not read again.
 */
export interface TreeMemory {
  /** The tree these files make; undefined before the first checkpoint. */
  tree?: string;
  files: Map<string, FileEntry>;
}

/** The workspace as it is now, against a tree the store knows. */
export interface WorkspaceScan {
  base: TreeMemory;
  /** Every file the snapshot holds. */
  files: Map<string, FileEntry>;
  changes: FileChange[];
  removed: string[];
  skipped: SkippedFile[];
}

/** Stats this close to the moment they are taken prove nothing: a write in the same tick keeps them. */
const RACY_MS = 2_000;
/** Changed files' bytes held for the write, at most (past this they are read again then). */
const HELD_BYTES = 64 * 1024 * 1024;

export const splitNul = (text: string): string[] => text.split('\0').filter((p) => p.length > 0);

/** The tree a scan makes is the base tree as it is: nothing to write. */
export const isClean = (scan: WorkspaceScan): boolean =>
  scan.base.tree !== undefined && scan.changes.length === 0 && scan.removed.length === 0;

/**
 * Compares the workspace, as the walk finds it, with a known tree: a file is read and hashed
 * only when its stats differ from last time (or were taken too close to a write to trust), so
 * an unchanged workspace costs one walk and one lstat per file, and no git process.
 */
export function scanWorkspace(root: string, walker: WorkspaceWalker, base: TreeMemory): WorkspaceScan {
  const walked = walker.walk();
  const skipped = [...walked.skipped];
  const files = new Map<string, FileEntry>();
  const changes: FileChange[] = [];
  const now = Date.now();
  let held = 0;
  for (const path of walked.files) {
    const abs = join(root, path);
    const stat = lstatSync(abs, { throwIfNoEntry: false });
    // Gone (or turned into a folder) since the walk: the next walk sees it as it is.
    if (!stat || !(stat.isFile() || stat.isSymbolicLink())) continue;
    const known = base.files.get(path);
    if (stat.size > MAX_FILE_BYTES && stat.isFile()) {
      skipped.push({ path, reason: `over 5 MB (${(stat.size / 1024 / 1024).toFixed(1)} MB)` });
      continue;
    }
    const key = trustedStat(stat, now);
    if (known && key && known.stat === key) {
      files.set(path, known);
      continue;
    }
    const mode = modeOf(stat);
    let data: Buffer;
    try {
      data = readBlob(abs, mode);
    } catch {
      // An unreadable file keeps the version the tree has, if any.
      skipped.push({ path, reason: 'not readable' });
      if (known) files.set(path, known);
      continue;
    }
    const entry: FileEntry = { mode, sha: blobSha(data), stat: key };
    files.set(path, entry);
    if (known && known.sha === entry.sha && known.mode === mode) continue;
    const hold = held + data.length <= HELD_BYTES;
    if (hold) held += data.length;
    changes.push({ path, mode, ...(hold ? { data } : {}) });
  }
  const removed: string[] = [];
  for (const path of base.files.keys()) if (!files.has(path)) removed.push(path);
  return { base, files, changes, removed, skipped };
}

/** The files of a tree, as `git ls-tree` lists them; their stats unknown, so each is read once. */
export async function readTree(repo: ShadowRepo, tree: string): Promise<TreeMemory> {
  const listed = await repo.git(['ls-tree', '-r', '-z', '--full-tree', tree]);
  const files = new Map<string, FileEntry>();
  for (const row of splitNul(listed.stdout)) {
    const tab = row.indexOf('\t');
    const [mode, type, sha] = row.slice(0, tab).split(' ');
    if (type === 'blob') files.set(row.slice(tab + 1), { mode: mode as FileMode, sha, stat: '' });
  }
  return { tree, files };
}

function modeOf(stat: Stats): FileMode {
  if (stat.isSymbolicLink()) return '120000';
  return stat.mode & 0o100 ? '100755' : '100644';
}

/** The stats that must be the same for a file to be taken as unchanged; '' when too recent to tell. */
function trustedStat(stat: Stats, now: number): string {
  if (now - stat.mtimeMs < RACY_MS || now - stat.ctimeMs < RACY_MS) return '';
  return `${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}:${stat.ino}:${stat.mode}`;
}
