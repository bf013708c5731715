import { countCrs, eolOf, isCrFile, LineWalker, lineContentEnd } from '../line_endings.js';
import { type FileIndex, skipIndent } from './lines.js';

const BOM = 0xfeff;

/** Characters per chunk of the combined pass: small enough for the chunk to stay in cache. */
const CHUNK = 1 << 16;
/** Literal prefixes longer than this are cut in the combined pattern (full lines are checked after). */
const LITERAL_MAX = 64;

/** Anchor lines to look for, and the file lines found for each (ascending). */
interface AnchorSet {
  pattern: RegExp;
  byFirstChar: Map<number, string[]>;
  found: Map<string, number[]>;
}

function escapeRegExp(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

function anchorSet(anchors: Iterable<string>): AnchorSet {
  const found = new Map<string, number[]>();
  const byFirstChar = new Map<number, string[]>();
  const literals = new Set<string>();
  for (const a of anchors) {
    if (a.length === 0 || found.has(a)) continue;
    found.set(a, []);
    literals.add(escapeRegExp(a.slice(0, LITERAL_MAX)));
    const c = a.charCodeAt(0);
    const group = byFirstChar.get(c);
    if (group) group.push(a);
    else byFirstChar.set(c, [a]);
  }
  const pattern = new RegExp(literals.size > 0 ? [...literals].join('|') : '(?!)', 'g');
  return { pattern, byFirstChar, found };
}

/** The line among `lo..hi` whose start is the last one at or before offset `p`. */
function lineIn(starts: Int32Array, p: number, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (starts[mid] <= p) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Records the anchors that start the content of lines `lo..hi-1` (`starts[hi]` must be set). The
 * alternation of all anchors finds the leftmost candidate; a hit counts only at the start of a
 * line's content, and the scan then resumes at the next line, so each line is reported at most once.
 */
function sweep(
  text: string,
  starts: Int32Array,
  lo: number,
  hi: number,
  set: AnchorSet,
  crBreaks: boolean,
): void {
  if (lo >= hi || set.found.size === 0) return;
  const c0 = starts[lo];
  const part = text.slice(c0, starts[hi]);
  const re = set.pattern;
  re.lastIndex = 0;
  let line = lo;
  for (;;) {
    const m = re.exec(part);
    if (m === null) break;
    const p = m.index + c0;
    line = lineIn(starts, p, line, hi - 1);
    if (p === skipIndent(text, starts[line])) {
      const end = lineContentEnd(text, starts[line], starts[line + 1], crBreaks);
      for (const a of set.byFirstChar.get(text.charCodeAt(p))!) {
        if (p + a.length <= end && text.startsWith(a, p)) set.found.get(a)!.push(line);
      }
    }
    line++;
    if (line >= hi) break;
    re.lastIndex = starts[line] - c0;
  }
}

/**
 * Indexes the file's lines and, in the same pass, finds every line whose normalised form starts
 * with one of `anchors` (normalised SEARCH lines). The text is handled in chunks of whole lines:
 * each chunk's line starts are recorded, then the chunk is searched for all anchors at once while
 * it is still in cache, so the file is read from memory once whatever the number of blocks.
 * `chunkSize` (characters) only matters for speed.
 */
export function scanFile(
  text: string,
  anchors: Iterable<string>,
  chunkSize = CHUNK,
): { ix: FileIndex; hits: Map<string, number[]> } {
  const set = anchorSet(anchors);
  // The file's ending (line_endings.ts): its CRs are counted first, its LFs while splitting.
  const crs = countCrs(text);
  const crBreaks = isCrFile(text, crs);
  let lfBreaks = 0;
  const walker = new LineWalker(text, true);
  const len = text.length;
  let starts = new Int32Array(Math.max(16, (len >> 5) + 16));
  let count = 0;
  let pos = text.charCodeAt(0) === BOM ? 1 : 0;
  while (pos < len) {
    const lo = count;
    const limit = pos + Math.max(1, chunkSize);
    while (pos < len && pos < limit) {
      if (count + 2 > starts.length) {
        const bigger = new Int32Array(starts.length * 2);
        bigger.set(starts);
        starts = bigger;
      }
      starts[count++] = pos;
      if (crBreaks) {
        pos = walker.nextLineStart(pos);
      } else {
        const nl = text.indexOf('\n', pos);
        if (nl !== -1) lfBreaks++;
        pos = nl === -1 ? len : nl + 1;
      }
    }
    starts[count] = pos;
    sweep(text, starts, lo, count, set, crBreaks);
  }
  starts[count] = len;
  const eol = eolOf(crs, lfBreaks, crBreaks);
  const ix: FileIndex = { text, count, lineStart: starts.subarray(0, count + 1), eol, crBreaks };
  return { ix, hits: set.found };
}

/** The line model of a file (see `FileIndex`). */
export function indexFile(text: string): FileIndex {
  return scanFile(text, []).ix;
}

/**
 * For each non-empty normalised line in `anchors`, the ascending lines of an indexed file whose
 * normalised form starts with it; one pass over the text for all of them.
 */
export function locateAnchors(ix: FileIndex, anchors: Iterable<string>): Map<string, number[]> {
  const set = anchorSet(anchors);
  sweep(ix.text, ix.lineStart, 0, ix.count, set, ix.crBreaks);
  return set.found;
}
