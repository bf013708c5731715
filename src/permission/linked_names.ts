import { type Dirent, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { isInside } from '../util/inside_folder.js';

/** A regular file with more than one name (hard links): who it is and when its names last changed. */
export interface LinkedFile {
  /** Device and inode: every name of the file shares them. */
  id: string;
  /** A new name (a link, a rename) changes it. */
  ctimeMs: number;
}

/** The identity of an existing regular file that has other names; undefined for any other path. */
export function linkedFile(path: string): LinkedFile | undefined {
  try {
    const stat = statSync(path, { bigint: true, throwIfNoEntry: false });
    if (!stat?.isFile() || stat.nlink < 2n) return undefined;
    return { id: `${stat.dev}:${stat.ino}`, ctimeMs: Number(stat.ctimeMs) };
  } catch {
    return undefined;
  }
}

/** Where guarded names are looked for, and which names are guarded. */
export interface GuardedPlaces {
  /** Changes when what is guarded changes (rules, workspace): a scan made for another key is not reused. */
  key: string;
  /** Folders walked (links not followed; git's object store left out). */
  folders: readonly string[];
  /** Files looked at by name. */
  files: readonly string[];
  guarded(path: string): boolean;
}

interface Scan {
  key: string;
  startedAt: number;
  /** The guarded names of files that have other names, by identity. */
  names: Map<string, string[]>;
  /** False when the walk stopped at its limit. */
  complete: boolean;
  /** Identities whose ctime was seen before this scan started: the scan saw all their names. */
  seenBefore: Map<string, number>;
}

/** Entries a scan reads at most; past it, a file with other names cannot be cleared. */
export const MAX_SCANNED_ENTRIES = 200_000;

/**
 * Finds the guarded names (denied by a rule, protected) of a file with several names, by walking
 * the places guarded files can be. One scan serves until what is guarded changes, or until the
 * asked-about file's names changed after the scan began (its ctime says so).
 */
export class LinkedNames {
  private scan: Scan | undefined;

  constructor(private readonly maxEntries = MAX_SCANNED_ENTRIES) {}

  /** The guarded names of `file`; undefined when not every place could be looked through. */
  guardedNames(file: LinkedFile, places: GuardedPlaces): string[] | undefined {
    let scan = this.scan;
    if (!scan || scan.key !== places.key || !sawAllNames(scan, file)) {
      scan = scanPlaces(places, this.maxEntries);
      // The file was looked at before this scan began: every name it has now, the scan sees.
      scan.seenBefore.set(file.id, file.ctimeMs);
      this.scan = scan;
    }
    const names = scan.names.get(file.id);
    if (names) return names;
    return scan.complete ? [] : undefined;
  }
}

function sawAllNames(scan: Scan, file: LinkedFile): boolean {
  if (scan.seenBefore.get(file.id) === file.ctimeMs) return true;
  // File systems stamp times from a clock up to a tick behind, and some only to the second.
  const slack = file.ctimeMs % 1000 === 0 ? 2_000 : 50;
  return file.ctimeMs < scan.startedAt - slack;
}

function scanPlaces(places: GuardedPlaces, maxEntries: number): Scan {
  const scan: Scan = {
    key: places.key,
    startedAt: Date.now(),
    names: new Map(),
    complete: true,
    seenBefore: new Map(),
  };
  const note = (path: string) => {
    if (!places.guarded(path)) return;
    const file = linkedFile(path);
    if (file) scan.names.set(file.id, [...(scan.names.get(file.id) ?? []), path]);
  };
  for (const file of places.files) note(file);
  let budget = maxEntries;
  for (const folder of outermost(places.folders)) {
    budget = walkFiles(folder, note, budget);
    if (budget < 0) {
      scan.complete = false;
      break;
    }
  }
  return scan;
}

/** The folders not inside another of them. */
function outermost(folders: readonly string[]): string[] {
  const kept: string[] = [];
  for (const folder of [...new Set(folders)].sort((a, b) => a.length - b.length)) {
    if (!kept.some((outer) => isInside(folder, outer))) kept.push(folder);
  }
  return kept;
}

/** Visits each file and link under `root`; returns the entry budget left (negative: stopped). */
function walkFiles(root: string, visit: (path: string) => void, budget: number): number {
  const stack = [root];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    budget -= entries.length;
    if (budget < 0) return budget;
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'objects' || basename(dir) !== '.git') stack.push(path);
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        visit(path);
      }
    }
  }
  return budget;
}
