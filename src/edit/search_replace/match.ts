import { describeNoMatch } from './closest_run.js';
import { anchorOf, segmentStarts } from './find.js';
import type { FileIndex } from './lines.js';
import type { Segment } from './segments.js';

/** Where a block matched: 0-based inclusive file lines, and the lines each SKIP covered. */
export interface BlockMatch {
  ok: true;
  start: number;
  end: number;
  skipped: number[];
}

export interface BlockRefusal {
  ok: false;
  error: string;
  /** 1-based start lines of every candidate, when the block matched several places. */
  candidates?: number[];
}

/** At most this many candidate line numbers are spelled out in a message (all are in `candidates`). */
const LISTED_CANDIDATES = 50;

/** First element of ascending `xs` that is `>= x`, or -1. */
function firstAtLeast(xs: readonly number[], x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (xs[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo < xs.length ? xs[lo] : -1;
}

function listLines(starts: readonly number[]): string {
  const shown = starts.slice(0, LISTED_CANDIDATES).map((c) => c + 1);
  const more = starts.length - shown.length;
  return more > 0 ? `${shown.join(', ')} … and ${more} more` : shown.join(', ');
}

function searchLines(seg: Segment): string {
  const a = seg.firstSearchLine;
  const b = a + seg.lines.length - 1;
  return a === b ? `SEARCH line ${a}` : `SEARCH lines ${a}-${b}`;
}

function ambiguous(starts: readonly number[], what: string): BlockRefusal {
  return {
    ok: false,
    error:
      `${what} matches ${starts.length} places: lines ${listLines(starts)}` +
      ' — add surrounding lines to make it unique',
    candidates: starts.map((c) => c + 1),
  };
}

/** The anchor line of each non-empty segment, to locate all at once with `scanFile`. */
export function anchorsOf(segments: readonly Segment[]): string[] {
  return segments.filter((s) => s.lines.length > 0).map((s) => s.lines[anchorOf(s.lines)]);
}

/**
 * Finds the single place a block matches (rules 1, 2 and 4), given its segments (`segmentSearch`)
 * and the file lines where their anchors match (`scanFile` over `anchorsOf`). Two SKIP lines in a
 * row leave an empty middle segment, which matches where it stands (the second SKIP covers the gap).
 */
export function matchBlock(
  ix: FileIndex,
  segments: readonly Segment[],
  anchorHits: ReadonlyMap<string, number[]>,
): BlockMatch | BlockRefusal {
  if (segments.length === 1 && segments[0].lines.length === 0) {
    return {
      ok: false,
      error:
        'SEARCH is empty — to create or overwrite a whole file use write_to_file; ' +
        'to insert text, put the lines next to the insertion point in SEARCH and repeat them in REPLACE',
    };
  }
  if (segments.length === 1) {
    const seg = segments[0];
    const starts = segmentStarts(ix, seg.lines, anchorHits);
    if (starts.length === 1)
      return { ok: true, start: starts[0], end: starts[0] + seg.lines.length - 1, skipped: [] };
    if (starts.length > 1) return ambiguous(starts, 'SEARCH');
    const size = `${seg.lines.length} line${seg.lines.length === 1 ? '' : 's'}`;
    return { ok: false, error: describeNoMatch(ix, seg, 0, `SEARCH (${size})`) };
  }
  const head = segments[0];
  const tail = segments[segments.length - 1];
  if (head.lines.length === 0) {
    return {
      ok: false,
      error:
        'SEARCH starts with `....... SKIP` — put at least one line before it so the block has a fixed start',
    };
  }
  if (tail.lines.length === 0) {
    return {
      ok: false,
      error: 'SEARCH ends with `....... SKIP` — put at least one line after it so the block has a fixed end',
    };
  }
  return matchSkipBlock(ix, segments, anchorHits);
}

interface Walk {
  end: number;
  skipped: number[];
  /** Index of the segment not found, and the line the search for it started at. */
  failed?: { segment: number; from: number };
}

/** From a head position, takes the nearest following match of each later segment. */
function walk(head: number, segments: readonly Segment[], positions: readonly (number[] | null)[]): Walk {
  let next = head + segments[0].lines.length;
  const skipped: number[] = [];
  for (let s = 1; s < segments.length; s++) {
    const list = positions[s];
    const at = list === null ? next : firstAtLeast(list, next);
    if (at < 0) return { end: -1, skipped, failed: { segment: s, from: next } };
    skipped.push(at - next);
    next = at + segments[s].lines.length;
  }
  return { end: next - 1, skipped };
}

function matchSkipBlock(
  ix: FileIndex,
  segments: readonly Segment[],
  anchorHits: ReadonlyMap<string, number[]>,
): BlockMatch | BlockRefusal {
  const heads = segmentStarts(ix, segments[0].lines, anchorHits);
  if (heads.length === 0) {
    const what = `the part of SEARCH before the first SKIP (${searchLines(segments[0])})`;
    return { ok: false, error: describeNoMatch(ix, segments[0], 0, what) };
  }
  // Every match of each later segment, found once; an empty middle segment matches anywhere (null).
  const positions = segments.map((seg, s) =>
    s === 0 || seg.lines.length === 0 ? null : segmentStarts(ix, seg.lines, anchorHits),
  );
  const good: number[] = [];
  let only: Walk | null = null;
  let firstFailure: Walk | null = null;
  for (const h of heads) {
    const w = walk(h, segments, positions);
    if (w.failed) {
      firstFailure ??= w;
      continue;
    }
    good.push(h);
    only = w;
  }
  if (good.length > 1) return ambiguous(good, 'SEARCH (its lines before the first SKIP)');
  if (good.length === 1 && only) return { ok: true, start: good[0], end: only.end, skipped: only.skipped };
  const { segment, from } = firstFailure!.failed!;
  const where = heads.length === 1 ? `line ${heads[0] + 1}` : `lines ${listLines(heads)}`;
  const what = `the part of SEARCH after SKIP ${segment} (${searchLines(segments[segment])})`;
  return {
    ok: false,
    error: `the lines before the first SKIP match at ${where}, but ${describeNoMatch(ix, segments[segment], from, what)}`,
  };
}
