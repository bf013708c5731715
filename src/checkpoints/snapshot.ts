import { checkpointBytes } from './checkpoint_bytes.js';
import { blobSha, type FileChange, type FileEntry, type FileMode, type FileStats } from './fast_import.js';
import { isLinkMode, isRegularMode, type StatSource } from './file_stats.js';
import type { ShadowRepo } from './shadow_repo.js';
import type { SkippedFile, WorkspaceWalker } from './walk.js';

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
  /** How many files had to be read (their stats were new or not to be trusted). */
  read: number;
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
export async function scanWorkspace(
  root: string,
  walker: WorkspaceWalker,
  base: TreeMemory,
  statter: StatSource,
  /** Files the walk leaves out to hold too (ignored files a restore may change). */
  extra: readonly string[] = [],
): Promise<WorkspaceScan> {
  const walked = walker.walk();
  const skipped = [...walked.skipped];
  const added = new Set(extra.filter((path) => !walked.files.has(path)));
  // The base's files, copied at the first difference: an unchanged workspace copies nothing.
  let changed: Map<string, FileEntry> | undefined;
  const files = () => {
    changed ??= new Map(base.files);
    return changed;
  };
  const left = new Set<string>();
  const changes: FileChange[] = [];
  const paths = added.size > 0 ? [...walked.list, ...added] : walked.list;
  const stats = await statter.stat(root, paths);
  const now = Date.now();
  let held = 0;
  let read = 0;
  /** Paths of the base tree the walk found (each path comes once). */
  let found = 0;
  for (let i = 0; i < paths.length; i++) {
    const path = paths[i];
    const known = base.files.get(path);
    if (known) found++;
    if (known?.stat && stats.matches(i, known.stat)) continue;
    const abs = `${root}/${path}`;
    const stat = stats.at(i);
    // Gone (or turned into a folder) since the walk: the next walk sees it as it is.
    if (!stat || !(isRegularMode(stat.mode) || isLinkMode(stat.mode))) {
      left.add(path);
      continue;
    }
    const bytes = checkpointBytes(abs, stat);
    if ('reason' in bytes) {
      skipped.push({ path, reason: bytes.reason });
      // An unreadable file keeps the version the tree has, if any; a large one is left out.
      if (!bytes.unreadable) left.add(path);
      continue;
    }
    const { mode, data } = bytes;
    read++;
    const entry: FileEntry = { mode, sha: blobSha(data), stat: trustedStats(stat, now) };
    files().set(path, entry);
    if (known && known.sha === entry.sha && known.mode === mode) continue;
    const hold = held + data.length <= HELD_BYTES;
    if (hold) held += data.length;
    changes.push({ path, mode, ...(hold ? { data } : {}) });
  }
  const removed: string[] = [];
  // When the walk found every file of the base, only those it left are gone: no second pass.
  const gone =
    found === base.files.size
      ? [...left].filter((path) => base.files.has(path))
      : [...base.files.keys()].filter(
          (path) => left.has(path) || !(walked.files.has(path) || added.has(path)),
        );
  for (const path of gone) {
    removed.push(path);
    files().delete(path);
  }
  return { base, files: changed ?? base.files, changes, removed, skipped, read };
}

/** The files of a tree, as `git ls-tree` lists them; their stats unknown, so each is read once. */
export async function readTree(repo: ShadowRepo, tree: string): Promise<TreeMemory> {
  const listed = await repo.git(['ls-tree', '-r', '-z', '--full-tree', tree]);
  const files = new Map<string, FileEntry>();
  for (const row of splitNul(listed.stdout)) {
    const tab = row.indexOf('\t');
    const [mode, type, sha] = row.slice(0, tab).split(' ');
    if (type === 'blob') files.set(row.slice(tab + 1), { mode: mode as FileMode, sha });
  }
  return { tree, files };
}

/** The stats to compare next time; none when too recent to tell a later write in the same tick. */
function trustedStats(stat: FileStats, now: number): FileStats | undefined {
  if (now - stat.mtimeMs < RACY_MS || now - stat.ctimeMs < RACY_MS) return undefined;
  return { size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, ino: stat.ino, mode: stat.mode };
}
