import { comparePaths, FirstPaths } from '../shared/path_order.js';
import { fileTime } from './file_listing.js';

/** The files a glob shows, and in which order they were picked. */
export interface PickedFiles {
  files: string[];
  /** How many files matched (deleted and non-files left out when they were looked at). */
  total: number;
  /** `time`: the newest first; `path`: too many to look at each one's time, the first by path. */
  order: 'time' | 'path';
}

/** Files stat'ed between yields to the event loop (a synchronous stat is several times faster here). */
const STAT_BATCH = 2_000;

/**
 * Collects a stream of matching paths and picks the `shown` newest. Up to `timeLimit` matches
 * each one's time is looked at (a stat each, the cost of the pick); past it only the first
 * `shown` by path are kept, so neither time nor memory grows with a huge match.
 */
export class NewestFiles {
  private pending: string[] | undefined = [];
  private readonly first: FirstPaths;

  constructor(
    private readonly shown: number,
    private readonly timeLimit: number,
  ) {
    this.first = new FirstPaths(shown);
  }

  add(path: string): void {
    this.first.add(path);
    if (!this.pending) return;
    this.pending.push(path);
    if (this.pending.length > this.timeLimit) this.pending = undefined;
  }

  async pick(root: string): Promise<PickedFiles> {
    if (!this.pending) {
      const files = this.first.paths().filter((path) => fileTime(root, path) !== undefined);
      return { files, total: this.first.count, order: 'path' };
    }
    const found: Array<{ path: string; time: number }> = [];
    for (let i = 0; i < this.pending.length; i++) {
      if (i > 0 && i % STAT_BATCH === 0) await new Promise((resolve) => setImmediate(resolve));
      const time = fileTime(root, this.pending[i]);
      if (time !== undefined) found.push({ path: this.pending[i], time });
    }
    found.sort((a, b) => b.time - a.time || comparePaths(a.path, b.path));
    return { files: found.slice(0, this.shown).map((f) => f.path), total: found.length, order: 'time' };
  }
}
