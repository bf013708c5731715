import { readFileSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import { join } from 'node:path';
import type { FileEntry } from './fast_import.js';
import type { TreeMemory } from './snapshot.js';

/**
 * The files' stats as last seen, kept in the shadow repository for the next process: a file
 * whose stats are the same holds the same bytes, so a new process need not read every file.
 * Each row is true on its own (these stats, this blob), whichever tree is newest; a missing or
 * unreadable cache only means the files are read again.
 */
const CACHE_FILE = 'lathe-stats.json';

type Row = [
  path: string,
  mode: string,
  sha: string,
  size: number,
  mtimeMs: number,
  ctimeMs: number,
  ino: number,
  statMode: number,
];

/** Adds the cached stats to a tree's files where the cache saw the same blob at the same path. */
export function addCachedStats(gitDir: string, memory: TreeMemory): void {
  let rows: Row[];
  try {
    rows = JSON.parse(readFileSync(join(gitDir, CACHE_FILE), 'utf8')) as Row[];
    if (!Array.isArray(rows)) return;
  } catch {
    return;
  }
  for (const row of rows) {
    if (!Array.isArray(row) || row.length !== 8) continue;
    const [path, mode, sha, size, mtimeMs, ctimeMs, ino, statMode] = row;
    const entry = memory.files.get(path);
    if (entry && !entry.stat && entry.sha === sha && entry.mode === mode)
      memory.files.set(path, { ...entry, stat: { size, mtimeMs, ctimeMs, ino, mode: statMode } });
  }
}

/** Writes the cache (whole, then renamed into place, so a reader never sees half of it). */
export async function saveStats(gitDir: string, files: ReadonlyMap<string, FileEntry>): Promise<void> {
  const rows: Row[] = [];
  for (const [path, { mode, sha, stat }] of files)
    if (stat) rows.push([path, mode, sha, stat.size, stat.mtimeMs, stat.ctimeMs, stat.ino, stat.mode]);
  const temp = join(gitDir, `${CACHE_FILE}.${process.pid}.tmp`);
  await fs.writeFile(temp, JSON.stringify(rows));
  await fs.rename(temp, join(gitDir, CACHE_FILE));
}
