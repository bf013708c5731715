import { contentEnd, type FileIndex, indentEnd, lineMatches } from './lines.js';

/** Index of the line of a segment to look the file up by: the longest, as the most selective. */
export function anchorOf(lines: readonly string[]): number {
  let best = 0;
  for (let k = 1; k < lines.length; k++) if (lines[k].length > lines[best].length) best = k;
  return best;
}

/** The line that contains character offset `p`, searching lines `lo` and after. */
function lineAt(ix: FileIndex, p: number, lo: number): number {
  let hi = ix.count - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (ix.lineStart[mid] <= p) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Whether the segment `lines` matches the file lines from `c`, except line `skip` (already known). */
function verify(ix: FileIndex, lines: readonly string[], c: number, skip: number): boolean {
  for (let k = 0; k < lines.length; k++) if (k !== skip && !lineMatches(ix, c + k, lines[k])) return false;
  return true;
}

/**
 * Start lines (ascending) at which the whole segment matches, given the lines where its anchor
 * line matches (from `scanFile` or `locateAnchors`). A segment of blank lines only has no anchor
 * and is found by `findSegment` instead.
 */
export function segmentStarts(
  ix: FileIndex,
  lines: readonly string[],
  anchorHits: ReadonlyMap<string, number[]>,
): number[] {
  const j = anchorOf(lines);
  const hits = anchorHits.get(lines[j]);
  if (hits === undefined) return findSegment(ix, lines, 0, ix.count);
  const m = lines.length;
  const starts: number[] = [];
  for (const line of hits) {
    const c = line - j;
    if (c >= 0 && c + m <= ix.count && verify(ix, lines, c, j)) starts.push(c);
  }
  return starts;
}

/**
 * Every start line c (0-based, ascending) with `from <= c` and `c + lines.length <= to` at which
 * all `lines` match consecutive file lines; stops after `limit` results. Scans the file for the
 * anchor line with the native substring search and verifies only its hits.
 */
export function findSegment(
  ix: FileIndex,
  lines: readonly string[],
  from: number,
  to: number,
  limit = Number.POSITIVE_INFINITY,
): number[] {
  const found: number[] = [];
  const m = lines.length;
  if (m === 0 || to - from < m) return found;
  const j = anchorOf(lines);
  const anchor = lines[j];
  const firstLine = from + j;
  const lastLine = to - m + j;
  if (anchor.length === 0) {
    for (let line = firstLine; line <= lastLine; line++) {
      if (lineMatches(ix, line, '') && verify(ix, lines, line - j, j)) {
        found.push(line - j);
        if (found.length >= limit) break;
      }
    }
    return found;
  }
  const stop = ix.lineStart[lastLine + 1];
  let line = firstLine;
  while (line <= lastLine) {
    const p = ix.text.indexOf(anchor, ix.lineStart[line]);
    if (p === -1 || p >= stop) break;
    line = lineAt(ix, p, line);
    if (
      p === indentEnd(ix, line) &&
      p + anchor.length <= contentEnd(ix, line) &&
      verify(ix, lines, line - j, j)
    ) {
      found.push(line - j);
      if (found.length >= limit) break;
    }
    line++;
  }
  return found;
}
