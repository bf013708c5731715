import type { LineMatcher } from './line_matcher.js';
import type { PatchChunk } from './types.js';

/** Where a chunk lands: replace `length` lines at `start` by `newLines`. */
export interface Placement {
  start: number;
  length: number;
  newLines: string[];
  keptFrom: number[];
  /** Where the next chunk's search begins. */
  nextSearch: number;
}

export type LocateFailure =
  /** `context`: which of the chunk's `@@` lines was not found. */
  | { ok: false; reason: 'context-not-found'; context: number; searchedFrom: number }
  | { ok: false; reason: 'lines-not-found'; searchedFrom: number }
  | { ok: false; reason: 'ambiguous'; candidates: number[]; contextLines: number[] };

/** Every place the chunk could land, in file order; `contextLines` are where its (last) `@@` line leads. */
export type LocateResult = { ok: true; placements: Placement[]; contextLines: number[] } | LocateFailure;

/**
 * Finds where one chunk could land, the way the reference searches: chunks are applied in order,
 * each searching from where the previous one ended; `@@ line` moves the search past the first
 * occurrence of that line; `*** End of File` pins the lines to the end; a chunk with no old
 * lines appends.
 *
 * Unlike the reference, which takes the first match, every candidate is returned (the caller
 * refuses a patch that several placements fit). Without `@@`, every match in the search window
 * is a candidate. With `@@`, the chunk means "the first match after that line", so each
 * occurrence of the `@@` line proposes its nearest following match; distinct proposals count.
 * Several `@@` lines narrow in order, as the reference reads them: from each occurrence of the
 * first, the nearest occurrence of the next below it, and so on; the last leads to the change.
 */
export function locateChunk(
  matcher: LineMatcher,
  lineCount: number,
  chunk: PatchChunk,
  cursor: number,
  previousEnd: number,
): LocateResult {
  let from = cursor;
  let contextStarts: number[] | null = null;
  if (chunk.contexts.length > 0) {
    const chain = followContexts(matcher, chunk.contexts, from);
    if (!chain.ok) return chain;
    contextStarts = chain.lines;
    from = contextStarts[0] + 1;
  }

  if (chunk.oldLines.length === 0) {
    const placement = { start: lineCount, length: 0, newLines: chunk.newLines, keptFrom: chunk.keptFrom };
    return { ok: true, placements: [{ ...placement, nextSearch: from }], contextLines: contextStarts ?? [] };
  }

  let pattern = chunk.oldLines;
  let newLines = chunk.newLines;
  let keptFrom = chunk.keptFrom;
  let result = place(matcher, lineCount, pattern, from, chunk.endOfFile, contextStarts, previousEnd);
  if (result === null && pattern.at(-1) === '') {
    // A trailing blank context line often stands for the file's final newline, which is not a
    // line of its own here: retry without it, as the reference does.
    pattern = pattern.slice(0, -1);
    if (newLines.at(-1) === '') {
      newLines = newLines.slice(0, -1);
      keptFrom = keptFrom.slice(0, -1);
    }
    keptFrom = keptFrom.map((source) => (source < pattern.length ? source : -1));
    result = place(matcher, lineCount, pattern, from, chunk.endOfFile, contextStarts, previousEnd);
  }
  if (result === null) return { ok: false, reason: 'lines-not-found', searchedFrom: from };
  const length = pattern.length;
  return {
    ok: true,
    placements: result.map((start) => ({ start, length, newLines, keptFrom, nextSearch: start + length })),
    contextLines: contextStarts ?? [],
  };
}

/**
 * Where the `@@` lines lead, from each occurrence of the first at or after `from`: the nearest
 * occurrence of each next one strictly below; the distinct last lines reached, ascending.
 */
function followContexts(
  matcher: LineMatcher,
  contexts: readonly string[],
  from: number,
): { ok: true; lines: number[] } | LocateFailure {
  let reached: number[] | null = matcher.findAll([contexts[0]], from);
  if (reached === null) return { ok: false, reason: 'context-not-found', context: 0, searchedFrom: from };
  for (let k = 1; k < contexts.length; k++) {
    const below = reached[0] + 1;
    const found = matcher.findAll([contexts[k]], below);
    if (found === null) return { ok: false, reason: 'context-not-found', context: k, searchedFrom: below };
    reached = nearestAfterEach(reached, found);
  }
  return { ok: true, lines: reached };
}

/** Candidate starts for `pattern`, or null when it matches nowhere allowed. */
function place(
  matcher: LineMatcher,
  lineCount: number,
  pattern: readonly string[],
  from: number,
  endOfFile: boolean,
  contextStarts: readonly number[] | null,
  previousEnd: number,
): number[] | null {
  if (pattern.length === 0) return [from];
  if (endOfFile) {
    const start = lineCount - pattern.length;
    // The reference pins to the end even before the search start; only refuse real overlaps.
    return start >= previousEnd && matcher.matchesAt(pattern, start) ? [start] : null;
  }
  const found = matcher.findAll(pattern, from);
  if (found === null) return null;
  if (contextStarts === null || contextStarts.length === 1) {
    return contextStarts === null ? found : [found[0]];
  }
  return nearestAfterEach(contextStarts, found);
}

/** For each context line, the first match strictly below it; duplicates collapse. */
function nearestAfterEach(contextStarts: readonly number[], starts: readonly number[]): number[] {
  const proposals: number[] = [];
  let next = 0;
  for (const context of contextStarts) {
    while (next < starts.length && starts[next] <= context) next++;
    if (next === starts.length) break;
    if (proposals.at(-1) !== starts[next]) proposals.push(starts[next]);
  }
  return proposals;
}
