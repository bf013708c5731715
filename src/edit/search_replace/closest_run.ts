import { type FileIndex, lineMatches, lineText, showLine } from './lines.js';
import { locateAnchors } from './scan.js';
import type { Segment } from './segments.js';

/** File lines `fileStart ..` match SEARCH lines `searchStart ..` (segment indices) for `run` lines. */
export interface NearMiss {
  run: number;
  fileStart: number;
  searchStart: number;
}

export interface NearMissSearch {
  /** The longest run found, or null when no run could be started. */
  best: NearMiss | null;
  /** Segment index of the first non-blank line that begins no file line (in range), or -1. */
  absent: number;
}

/** A SEARCH line found at more places than this is too common to start a near-miss run. */
const COMMON_LINE = 2000;
/** Upper bound on line comparisons spent looking for a near-miss. */
const BUDGET = 4_000_000;

/**
 * The longest run of consecutive SEARCH lines that match consecutive file lines (at or after line
 * `from`), earliest first among equals. All SEARCH lines are located in one pass over the file;
 * runs are started only from distinctive lines (blank and very common lines are walked through),
 * which keeps the cost to that pass plus the length of the runs found.
 */
export function findNearMiss(ix: FileIndex, lines: readonly string[], from: number): NearMissSearch {
  const m = lines.length;
  const to = ix.count;
  const located = locateAnchors(ix, lines);
  const hits = lines.map((s): number[] | null => {
    const all = located.get(s);
    if (all === undefined) return null;
    const at = from === 0 ? all : all.filter((i) => i >= from);
    return at.length > COMMON_LINE ? null : at;
  });
  const absent = hits.findIndex((h) => h !== null && h.length === 0);
  let best: NearMiss | null = null;
  let budget = BUDGET;
  for (let j = 0; j < m; j++) {
    const at = hits[j];
    if (at === null) continue;
    for (const i of at) {
      // Walk back over matching lines that are never scanned for, to find where this run starts.
      let b = 0;
      while (
        j - b > 0 &&
        i - b > from &&
        hits[j - b - 1] === null &&
        lineMatches(ix, i - b - 1, lines[j - b - 1])
      ) {
        b++;
      }
      // A distinctive line matching just before: the run is started from that line instead.
      if (j - b > 0 && i - b > from && lineMatches(ix, i - b - 1, lines[j - b - 1])) continue;
      const js = j - b;
      const is = i - b;
      let run = b + 1;
      while (js + run < m && is + run < to && lineMatches(ix, is + run, lines[js + run])) run++;
      budget -= run + 1;
      if (best === null || run > best.run) best = { run, fileStart: is, searchStart: js };
      if (budget <= 0) return { best, absent };
    }
  }
  return { best, absent };
}

function range(a: number, b: number): string {
  return a === b ? `line ${a}` : `lines ${a}-${b}`;
}

/**
 * The refusal for a segment that matches nowhere at or after file line `from` (0-based): the
 * nearest near-miss and the first line that differs, SEARCH line and file line side by side.
 */
export function describeNoMatch(ix: FileIndex, seg: Segment, from: number, what: string): string {
  const m = seg.lines.length;
  const scope = from > 0 ? ` after line ${from}` : '';
  const head = `${what} matches nowhere in the file${scope}.`;
  const advice =
    'Re-read the file and copy the lines exactly as they are there (leading indentation may be left out).';
  const { best: nm, absent } = findNearMiss(ix, seg.lines, from);
  if (nm === null) {
    const which =
      absent >= 0
        ? `SEARCH line ${seg.firstSearchLine + absent}, ${showLine(seg.raw[absent])}, begins no file line${scope}`
        : `its lines are blank or too common to locate it (SEARCH line ${seg.firstSearchLine} is ${showLine(seg.raw[0])})`;
    return `${head} ${which[0].toUpperCase()}${which.slice(1)}. ${advice}`;
  }
  const searchNo = (k: number) => seg.firstSearchLine + k;
  const matched =
    `Closest: file ${range(nm.fileStart + 1, nm.fileStart + nm.run)} ${nm.run === 1 ? 'matches' : 'match'} ` +
    `SEARCH ${range(searchNo(nm.searchStart), searchNo(nm.searchStart + nm.run - 1))}`;
  // The first difference follows the run; when the run reaches the end of SEARCH, it precedes it.
  let k: number;
  let fileLine: number;
  if (nm.searchStart + nm.run < m) {
    k = nm.searchStart + nm.run;
    fileLine = nm.fileStart + nm.run;
  } else {
    k = nm.searchStart - 1;
    fileLine = nm.fileStart - 1;
  }
  const searchShown = k >= 0 ? seg.raw[k] : '';
  let fileShown = '';
  let fileDesc: string;
  if (fileLine >= ix.count) fileDesc = `the file ends after line ${ix.count}`;
  else if (fileLine < 0) fileDesc = 'the file starts there (no file line before line 1)';
  else if (fileLine < from) fileDesc = `the search for these lines starts after line ${from}`;
  else {
    fileShown = lineText(ix, fileLine);
    fileDesc = `file line ${fileLine + 1}:   ${showLine(fileShown)}`;
  }
  const tabs = searchShown.includes('\t') || fileShown.includes('\t') ? '\n(→ marks a tab.)' : '';
  return (
    `${head} ${matched}; the first difference is\n` +
    `  SEARCH line ${searchNo(k)}: ${showLine(searchShown)}\n` +
    `  ${fileDesc}${tabs}\n${advice}`
  );
}
