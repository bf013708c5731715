import type { LineMatcher } from './line_matcher.js';
import { type LocateFailure, locateChunk, type Placement } from './locate_chunk.js';
import type { PatchChunk } from './types.js';

/** Positions the search may try before it gives up and calls the patch ambiguous. */
const SEARCH_BUDGET = 20_000;

export type PlaceResult =
  | { ok: true; placements: Placement[] }
  /** No in-order placement: `chunk` is the change that could not be placed. */
  | { ok: false; chunk: number; failure: LocateFailure };

/** What the search knows about placing chunks `index…` from one position: up to two ways. */
interface Ways {
  count: number;
  first?: Placement[];
  second?: Placement[];
  failure?: { chunk: number; failure: LocateFailure };
}

/**
 * Places every chunk of one Update in order. A chunk whose lines match in several places is
 * fine when the later chunks pin it: the patch applies when exactly one placement keeps every
 * chunk in order, below the one before it. Several consistent placements are refused as
 * ambiguous, at the first chunk where they differ.
 *
 * A depth-first search that stops at the second complete placement; positions already explored
 * are remembered, so the work stays near one pass over the candidates of each chunk.
 */
export function placeChunks(
  matcher: LineMatcher,
  lineCount: number,
  chunks: readonly PatchChunk[],
): PlaceResult {
  const memo = new Map<string, Ways>();
  let budget = SEARCH_BUDGET;

  const search = (index: number, cursor: number, previousEnd: number): Ways => {
    if (index === chunks.length) return { count: 1, first: [] };
    const key = `${index}:${cursor}:${previousEnd}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    // Past the budget, count the position as two ways: the patch is refused as ambiguous.
    if (--budget < 0) return { count: 2, first: [], second: [] };
    const located = locateChunk(matcher, lineCount, chunks[index], cursor, previousEnd);
    const ways: Ways = { count: 0 };
    if (!located.ok) {
      ways.failure = { chunk: index, failure: located };
    } else {
      for (const placement of located.placements) {
        const end = placement.length > 0 ? placement.start + placement.length : previousEnd;
        const rest = search(index + 1, placement.nextSearch, end);
        if (rest.count === 0) {
          ways.failure ??= rest.failure;
          continue;
        }
        for (const tail of [rest.first, rest.second]) {
          if (tail === undefined || ways.count >= 2) continue;
          if (ways.count === 0) ways.first = [placement, ...tail];
          else ways.second = [placement, ...tail];
          ways.count++;
        }
        if (ways.count >= 2) break;
      }
    }
    memo.set(key, ways);
    return ways;
  };

  const ways = search(0, 0, 0);
  if (budget < 0) return ambiguity(matcher, lineCount, chunks, [], []);
  if (ways.count === 1) return { ok: true, placements: ways.first as Placement[] };
  if (ways.count === 0) {
    const { chunk, failure } = ways.failure as NonNullable<Ways['failure']>;
    return { ok: false, chunk, failure };
  }
  return ambiguity(matcher, lineCount, chunks, ways.first as Placement[], ways.second as Placement[]);
}

/** Names the first chunk where two consistent placements differ, with every place it matches. */
function ambiguity(
  matcher: LineMatcher,
  lineCount: number,
  chunks: readonly PatchChunk[],
  first: Placement[],
  second: Placement[],
): PlaceResult {
  let chunk = 0;
  while (chunk < first.length && chunk < second.length && first[chunk].start === second[chunk].start) chunk++;
  if (chunk >= chunks.length) chunk = 0;
  const before = chunk > 0 ? first[chunk - 1] : undefined;
  const cursor = before?.nextSearch ?? 0;
  const previousEnd = before && before.length > 0 ? before.start + before.length : 0;
  const located = locateChunk(matcher, lineCount, chunks[chunk], cursor, previousEnd);
  const candidates = located.ok ? located.placements.map((p) => p.start) : [];
  const contextLines = located.ok ? located.contextLines : [];
  return { ok: false, chunk, failure: { ok: false, reason: 'ambiguous', candidates, contextLines } };
}
