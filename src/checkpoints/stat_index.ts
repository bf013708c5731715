import { createHash } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import type { FileEntry, FileMode, FileStats } from './fast_import.js';

/**
 * A git index (version 2) of a snapshot's files with the stats lathe saw, written by lathe, so
 * that `git diff-files` can compare every file's stats in C, with its threads, rather than one
 * lstat at a time from JavaScript. Only files whose stats lathe trusts go in (those of a file
 * written too close to its read would prove nothing); git never writes this index.
 *
 * What git compares (with its default `core.checkStat`): the seconds of the time stamps, the
 * size, the inode, the owner and the mode's type and executable bit; a git built to compare
 * nanoseconds or devices too sees a difference lathe's stats cannot always rule out, and then
 * only says "look again" (see IndexedStats).
 */

/** Who owns the files, as the index says: git finds a file of another owner changed (lathe then looks itself). */
export interface IndexOwner {
  uid: number;
  gid: number;
  dev: number;
}

const ENTRY_FIXED = 62;
const FILE_MODES: Record<FileMode, number> = { '100644': 0o100644, '100755': 0o100755, '120000': 0o120000 };
const U32 = 2 ** 32;

/** UTF-16 code units from U+D800 up: where their order and UTF-8's (git's `strcmp`) part. */
const HIGH_UNITS = /[\ud800-\uffff]/;

/** Orders names as git does (by their UTF-8 bytes): a surrogate pair sorts after U+E000–U+FFFF. */
function byUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return utf8Rank(x) - utf8Rank(y);
  }
  return a.length - b.length;
}
const utf8Rank = (unit: number) => (unit >= 0xe000 ? unit - 0x800 : unit >= 0xd800 ? unit + 0x2000 : unit);

/** Entries written between two looks at whether to stop (a few ms of work). */
const CHUNK = 5_000;

/**
 * Writes the index of `files` at `path` (whole, then renamed into place) and gives back the stats
 * it holds, by path: the very objects of `files`, so a caller can tell an entry the index holds
 * from one that came since. Every CHUNK entries it lets the thread's other work in, and gives up
 * (writing nothing) when `stop` says so: a snapshot asked meanwhile is not kept waiting.
 */
export async function writeStatIndex(
  path: string,
  files: ReadonlyMap<string, FileEntry>,
  owner: IndexOwner,
  stop: () => boolean = () => false,
): Promise<Map<string, FileStats> | undefined> {
  const names: string[] = [];
  let high = false;
  for (const [name, entry] of files)
    if (entry.stat) {
      names.push(name);
      if (!high && HIGH_UNITS.test(name)) high = true;
    }
  // The work before the entries is given way too, a step at a time.
  const pause = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    return stop();
  };
  if (await pause()) return undefined;
  names.sort(high ? byUtf8 : undefined);
  if (await pause()) return undefined;
  const entries = names.map((name) => files.get(name) as Required<FileEntry>);
  // All names and all ids encoded at once (a path holds no NUL): one call rather than one each.
  const encoded = Buffer.from(names.join('\0'));
  const ids = Buffer.from(entries.map((entry) => entry.sha).join(''), 'hex');
  if (await pause()) return undefined;
  const starts = new Int32Array(names.length + 1);
  let total = 12 + 20;
  for (let i = 0; i < names.length; i++) {
    const end = i === names.length - 1 ? encoded.length : encoded.indexOf(0, starts[i]);
    starts[i + 1] = end + 1;
    total += (ENTRY_FIXED + end - starts[i] + 8) & ~7;
  }
  const out = Buffer.alloc(total);
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  out.write('DIRC', 0, 'latin1');
  view.setUint32(4, 2);
  view.setUint32(8, names.length);
  const indexed = new Map<string, FileStats>();
  const { uid, gid, dev } = { uid: owner.uid % U32, gid: owner.gid % U32, dev: owner.dev % U32 };
  let at = 12;
  for (let i = 0; i < names.length; i++) {
    if (i % CHUNK === 0 && i > 0 && (await pause())) return undefined;
    const { mode, stat } = entries[i];
    indexed.set(names[i], stat);
    writeTime(view, at, stat.ctimeMs);
    writeTime(view, at + 8, stat.mtimeMs);
    view.setUint32(at + 16, dev);
    view.setUint32(at + 20, stat.ino % U32);
    view.setUint32(at + 24, FILE_MODES[mode]);
    view.setUint32(at + 28, uid);
    view.setUint32(at + 32, gid);
    view.setUint32(at + 36, stat.size % U32);
    for (let b = 0, from = i * 20; b < 20; b++) out[at + 40 + b] = ids[from + b];
    const [start, length] = [starts[i], starts[i + 1] - 1 - starts[i]];
    view.setUint16(at + 60, Math.min(length, 0xfff));
    for (let b = 0; b < length; b++) out[at + ENTRY_FIXED + b] = encoded[start + b];
    at += (ENTRY_FIXED + length + 8) & ~7;
  }
  createHash('sha1').update(out.subarray(0, at)).digest().copy(out, at);
  const temp = `${path}.tmp`;
  try {
    writeFileSync(temp, out);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  return indexed;
}

/** A time stamp as the index holds it: whole seconds, then nanoseconds (as near as a float in ms gives them). */
function writeTime(view: DataView, at: number, ms: number): void {
  const seconds = Math.floor(ms / 1000);
  const nanoseconds = Math.min(999_999_999, Math.max(0, Math.round((ms - seconds * 1000) * 1e6)));
  view.setUint32(at, seconds % U32);
  view.setUint32(at + 4, nanoseconds);
}
