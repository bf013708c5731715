import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { replaceJsonFileSync } from '../util/json_file.js';
import type { FileEntry } from './fast_import.js';
import type { TreeMemory } from './snapshot.js';

/**
 * What the last process knew of the workspace, kept in the shadow repository for the next one:
 * the files' stats as last seen (a file whose stats are the same holds the same bytes, so a new
 * process need not read every file), and, when it was saved right after a checkpoint, that
 * checkpoint's commit and tree, whose files the rows then list in full (a new process then needs
 * no git to learn the newest tree and its files). Each row is true on its own (these stats, this
 * blob) whichever tree is newest; a missing or unreadable file only means more work next time.
 */
const CACHE_FILE = 'lathe-stats.json';

type StatRow = [
  path: string,
  mode: string,
  sha: string,
  size: number,
  mtimeMs: number,
  ctimeMs: number,
  ino: number,
  statMode: number,
];
/** A file of the tree whose stats were too fresh to trust. */
type BareRow = [path: string, mode: string, sha: string];
type Row = StatRow | BareRow;

export interface SavedFiles {
  /** The checkpoint whose tree the rows list in full; absent when they are stats alone. */
  commit?: string;
  tree?: string;
  rows: Row[];
}

/** The saved files, or undefined when there are none (or they cannot be read). */
export function readSavedFiles(gitDir: string): SavedFiles | undefined {
  try {
    const saved = JSON.parse(readFileSync(join(gitDir, CACHE_FILE), 'utf8')) as SavedFiles | Row[];
    // The first form of the file: stats alone, as an array.
    if (Array.isArray(saved)) return { rows: saved };
    return Array.isArray(saved?.rows) ? saved : undefined;
  } catch {
    return undefined;
  }
}

/** The files of `tree` when they were saved in full for it, with their stats; undefined otherwise. */
export function savedTree(saved: SavedFiles | undefined, tree: string): TreeMemory | undefined {
  if (!saved || saved.tree !== tree || !saved.commit) return undefined;
  const files = new Map<string, FileEntry>();
  for (const row of saved.rows) {
    if (!Array.isArray(row) || (row.length !== 3 && row.length !== 8)) return undefined;
    files.set(row[0], entryOf(row));
  }
  return { tree, files };
}

/** Adds the saved stats to a tree's files where they saw the same blob at the same path. */
export function addCachedStats(saved: SavedFiles | undefined, memory: TreeMemory): void {
  for (const row of saved?.rows ?? []) {
    if (!Array.isArray(row) || row.length !== 8) continue;
    const entry = memory.files.get(row[0]);
    const cached = entryOf(row);
    if (entry && !entry.stat && entry.sha === cached.sha && entry.mode === cached.mode)
      memory.files.set(row[0], cached);
  }
}

/**
 * Writes the files (whole, then renamed into place, so a reader never sees half of it): with
 * `checkpoint`, as the full listing of its tree. Synchronous: a few calls, and a process about
 * to end need not wait turns for them.
 */
export function saveFiles(
  gitDir: string,
  files: ReadonlyMap<string, FileEntry>,
  checkpoint?: { commit: string; tree: string },
): void {
  const rows: Row[] = [];
  for (const [path, { mode, sha, stat }] of files)
    if (stat) rows.push([path, mode, sha, stat.size, stat.mtimeMs, stat.ctimeMs, stat.ino, stat.mode]);
    else if (checkpoint) rows.push([path, mode, sha]);
  const saved: SavedFiles = { ...checkpoint, rows };
  replaceJsonFileSync(join(gitDir, CACHE_FILE), saved);
}

function entryOf(row: Row): FileEntry {
  const [, mode, sha] = row;
  if (row.length === 3) return { mode: mode as FileEntry['mode'], sha };
  const [, , , size, mtimeMs, ctimeMs, ino, statMode] = row;
  return { mode: mode as FileEntry['mode'], sha, stat: { size, mtimeMs, ctimeMs, ino, mode: statMode } };
}
