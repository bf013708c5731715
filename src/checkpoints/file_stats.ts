import { lstatSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { lazyBuiltin } from '../util/lazy_builtin.js';
import type { FileMode, FileStats } from './fast_import.js';

/**
 * The stats of many files at once. lstat is most of what a checkpoint of an unchanged workspace
 * costs (about 4.5 µs a file: 90 ms for 20,000 files); on a large workspace a helper thread
 * takes half the files while this thread takes the other half, as git's own status does with
 * its threads. Node's asynchronous lstat costs more in callbacks than it saves.
 */

/** Numbers kept of each file, in this order, in the arrays below. */
const FIELDS = 5;
const [SIZE, MTIME, CTIME, INO, MODE] = [0, 1, 2, 3, 4];
/** Below this many files one thread is as fast: the hand-over costs what the split saves. */
const SPLIT_FROM = 4_000;

const S_IFMT = 0o170000;
export const isRegularMode = (mode: number) => (mode & S_IFMT) === 0o100000;
export const isLinkMode = (mode: number) => (mode & S_IFMT) === 0o120000;

/** A file's mode as git stores it, from its stats: a link, executable, or plain. */
export function modeOf(stat: { mode: number }): FileMode {
  if (isLinkMode(stat.mode)) return '120000';
  return stat.mode & 0o100 ? '100755' : '100644';
}

/**
 * Writes the stats of `paths[from..to)` (relative to `root`) into `out`, the first at index 0 (NaN
 * mode for a path not there now). Kept as source text: the helper thread runs the same loop, and
 * a bundler's renaming cannot reach into text. The numbers are FIELDS and the indexes above.
 */
const STAT_INTO = `function statInto(lstatSync, root, paths, from, to, out) {
  for (let i = from; i < to; i++) {
    const at = (i - from) * 5;
    let stat;
    try {
      stat = lstatSync(root + '/' + paths[i], { throwIfNoEntry: false });
    } catch {
      stat = undefined; // ENOTDIR and the like: a folder on the way became a file
    }
    if (!stat) {
      out[at + 4] = NaN;
      continue;
    }
    out[at] = stat.size;
    out[at + 1] = stat.mtimeMs;
    out[at + 2] = stat.ctimeMs;
    out[at + 3] = stat.ino;
    out[at + 4] = stat.mode;
  }
}`;

type StatInto = (
  lstat: typeof lstatSync,
  root: string,
  paths: readonly string[],
  from: number,
  to: number,
  out: Float64Array,
) => void;
const statInto = new Function(`return ${STAT_INTO}`)() as StatInto;

/**
 * The helper thread: the same loop, on its part of the list. The list is sent when it changed
 * (a walk that found no folder changed gives the same list again): a large list costs more to
 * send than to stat.
 */
const WORKER_SOURCE = `
const { lstatSync } = require('node:fs');
const { parentPort } = require('node:worker_threads');
const statInto = ${STAT_INTO};
let list = [];
parentPort.on('message', ({ root, paths, from, to }) => {
  if (paths) list = paths;
  const out = new Float64Array((to - from) * ${FIELDS});
  statInto(lstatSync, root, list, from, to, out);
  parentPort.postMessage(out, [out.buffer]);
});
`;

/** The stats of a list of files, by index, as a scan asks them. */
export interface PathStats {
  /** Whether the file at `index` has the stats `known`. */
  matches(index: number, known: FileStats): boolean;
  /** The stats of the file at `index`, undefined when it is not there. */
  at(index: number): FileStats | undefined;
}

/** What gives the stats of a list of files (relative to `root` with `/`). */
export interface StatSource {
  stat(root: string, paths: readonly string[]): Promise<PathStats>;
}

/** The stats of `paths`, taken on this thread. */
export function statHere(root: string, paths: readonly string[]): FileStatList {
  const out = new Float64Array(paths.length * FIELDS);
  statInto(lstatSync, root, paths, 0, paths.length, out);
  return new FileStatList(out);
}

/** The stats of a list of files, by index. */
export class FileStatList implements PathStats {
  constructor(private readonly values: Float64Array) {}

  /** Whether the file at `index` has the stats `known` (compared without making an object: a scan asks 20,000 times). */
  matches(index: number, known: FileStats): boolean {
    const at = index * FIELDS;
    return (
      this.values[at + MTIME] === known.mtimeMs &&
      this.values[at + SIZE] === known.size &&
      this.values[at + CTIME] === known.ctimeMs &&
      this.values[at + INO] === known.ino &&
      this.values[at + MODE] === known.mode
    );
  }

  /** The stats of the file at `index`, undefined when it is not there. */
  at(index: number): FileStats | undefined {
    const at = index * FIELDS;
    const mode = this.values[at + MODE];
    if (Number.isNaN(mode)) return undefined;
    return {
      size: this.values[at + SIZE],
      mtimeMs: this.values[at + MTIME],
      ctimeMs: this.values[at + CTIME],
      ino: this.values[at + INO],
      mode,
    };
  }
}

/** lstat of many files, split with a helper thread when there are many; one per checkpoint store. */
export class FileStatter implements StatSource {
  private worker?: Worker;
  private ready = false;
  private failed = false;
  /** The list the helper thread holds (sent again only when another one comes). */
  private sent?: readonly string[];

  /** Whether a helper thread is up and takes half of a large list. */
  get helping(): boolean {
    return this.ready && this.worker !== undefined;
  }

  /** The stats of `paths`, relative to `root` with `/`. */
  async stat(root: string, paths: readonly string[]): Promise<FileStatList> {
    const worker = paths.length >= SPLIT_FROM ? this.helper() : undefined;
    if (!worker) return statHere(root, paths);
    const out = new Float64Array(paths.length * FIELDS);
    const half = Math.floor(paths.length / 2);
    const theirs = this.ask(worker, root, paths, half);
    statInto(lstatSync, root, paths, 0, half, out);
    try {
      out.set(await theirs, half * FIELDS);
    } catch {
      this.failed = true; // the thread died: this one does it all from now on
      this.sent = undefined;
      statInto(lstatSync, root, paths, half, paths.length, out.subarray(half * FIELDS));
    }
    return new FileStatList(out);
  }

  /** Ends the helper thread, if one was started. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.sent = undefined;
    await worker?.terminate();
  }

  /**
   * The helper thread once it is up; the first large scan starts it and does all the work itself,
   * so no scan waits for a thread to start.
   */
  private helper(): Worker | undefined {
    if (this.failed) return undefined;
    if (this.worker) return this.ready ? this.worker : undefined;
    const { Worker } = lazyBuiltin('node:worker_threads');
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    this.sent = undefined;
    worker.unref();
    worker.once('online', () => {
      this.ready = true;
    });
    worker.once('error', () => {
      this.failed = true;
      this.worker = undefined;
    });
    this.worker = worker;
    return undefined;
  }

  /** The stats of `paths[from..]` from the helper thread. */
  private ask(worker: Worker, root: string, paths: readonly string[], from: number): Promise<Float64Array> {
    // Held while a request is out: an unreferenced thread would let the process end meanwhile.
    worker.ref();
    return new Promise<Float64Array>((resolve, reject) => {
      const done = () => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onError);
        worker.unref();
      };
      const onMessage = (values: Float64Array) => {
        done();
        resolve(values);
      };
      const onError = (error: unknown) => {
        done();
        reject(error instanceof Error ? error : new Error('the stat thread ended'));
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onError);
      const changed = this.sent !== paths;
      this.sent = paths;
      worker.postMessage({ root, from, to: paths.length, ...(changed ? { paths } : {}) });
    });
  }
}
