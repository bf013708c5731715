import { normaliseSearchLine } from './lines.js';
import { isSkipLine } from './parse.js';

/** A run of SEARCH lines between SKIP lines, normalised (rule 1). */
export interface Segment {
  lines: string[];
  /** The same lines as written, for messages. */
  raw: string[];
  /** 1-based SEARCH line number of the segment's first line. */
  firstSearchLine: number;
}

/** Splits SEARCH lines at `....... SKIP` lines. */
export function segmentSearch(search: readonly string[]): Segment[] {
  const segments: Segment[] = [];
  let current: Segment = { lines: [], raw: [], firstSearchLine: 1 };
  for (let k = 0; k < search.length; k++) {
    if (isSkipLine(search[k])) {
      segments.push(current);
      current = { lines: [], raw: [], firstSearchLine: k + 2 };
    } else {
      current.lines.push(normaliseSearchLine(search[k]));
      current.raw.push(search[k]);
    }
  }
  segments.push(current);
  return segments;
}
