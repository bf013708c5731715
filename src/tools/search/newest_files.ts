import { comparePaths, FirstPaths, keptPath } from '../shared/path_order.js';
import { fileTime } from './file_listing.js';

/** The files a glob shows, and in which order they were picked. */
export interface PickedFiles {
  files: string[];
  /** How many files matched (deleted and non-files left out when they were looked at). */
  total: number;
  /** `time`: the newest first; `path`: too many to look at each one's time, the first by path. */
  order: 'time' | 'path';
}

/** Files stat'ed at a time between the listing's chunks (a synchronous stat is several times faster here). */
const STAT_BATCH = 500;

/**
 * Collects a stream of matching paths and picks the `shown` newest. Up to `timeLimit` matches
 * each one's time is looked at (a stat each), while git or ripgrep is still listing when the
 * event loop has nothing else to do, the rest at the pick; past `timeLimit` only the first
 * `shown` by path are kept, so neither time nor memory grows with a huge match.
 */
export class NewestFiles {
  private pending: string[] | undefined = [];
  private found: Array<{ path: string; time: number }> = [];
  /** How many of `pending` were stat'ed. */
  private looked = 0;
  private scheduled = false;
  private readonly first: FirstPaths;

  constructor(
    private readonly root: string,
    private readonly shown: number,
    private readonly timeLimit: number,
  ) {
    this.first = new FirstPaths(shown);
  }

  add(path: string): void {
    this.first.add(path);
    if (!this.pending) return;
    if (this.first.count > this.timeLimit) {
      this.pending = undefined;
      this.found = [];
      return;
    }
    this.pending.push(keptPath(path));
    if (this.scheduled) return;
    this.scheduled = true;
    // After the pending I/O: the listing's own chunks come first.
    setImmediate(() => this.look(STAT_BATCH));
  }

  pick(): PickedFiles {
    if (!this.pending) {
      const files = this.first.paths().filter((path) => fileTime(this.root, path) !== undefined);
      return { files, total: this.first.count, order: 'path' };
    }
    this.look(this.pending.length);
    const found = this.found.sort((a, b) => b.time - a.time || comparePaths(a.path, b.path));
    return { files: found.slice(0, this.shown).map((f) => f.path), total: found.length, order: 'time' };
  }

  /** Stats up to `count` more of the pending paths. */
  private look(count: number): void {
    this.scheduled = false;
    const pending = this.pending;
    if (!pending) return;
    const end = Math.min(pending.length, this.looked + count);
    for (; this.looked < end; this.looked++) {
      const path = pending[this.looked];
      const time = fileTime(this.root, path);
      if (time !== undefined) this.found.push({ path, time });
    }
    if (this.looked < pending.length && !this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.look(STAT_BATCH));
    }
  }
}
