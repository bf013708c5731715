import { trimEndBlanks } from './lines.js';

/**
 * One SEARCH/REPLACE block of a diff:
 *
 * ```
 * ------- SEARCH
 * <search lines>
 * =======
 * <replace lines>
 * +++++++ REPLACE
 * ```
 */
export interface ParsedBlock {
  /** 1-based position of the block in the diff. */
  index: number;
  /** 1-based line of the diff holding the block's SEARCH marker. */
  diffLine: number;
  /** SEARCH lines as written (line breaks removed, `....... SKIP` lines included). */
  search: string[];
  /** REPLACE lines, verbatim (line breaks removed). */
  replace: string[];
}

export type ParseResult = { ok: true; blocks: ParsedBlock[] } | { ok: false; error: string; block?: number };

/** Length of every marker: `-------`, `=======`, `+++++++`, `.......`. */
export const MARKER_LENGTH = 7;

const SEARCH_MARKER = /^(?:-{7}|<{7}) SEARCH>?$/;
const DIVIDER_MARKER = /^={7}$/;
const REPLACE_MARKER = /^(?:\+{7}|>{7}) REPLACE>?$/;
const SKIP_LINE = `${'.'.repeat(MARKER_LENGTH)} SKIP`;

/** Whether a SEARCH line is the `....... SKIP` separator (trailing spaces and tabs ignored). */
export function isSkipLine(line: string): boolean {
  return trimEndBlanks(line) === SKIP_LINE;
}

const SHAPE = '------- SEARCH\n<lines to find>\n=======\n<lines to write>\n+++++++ REPLACE';

/**
 * Splits a diff into blocks. Markers are recognised in order only: a SEARCH marker opens a block,
 * the first `=======` after it ends SEARCH, and the first REPLACE marker after that closes the block,
 * so SEARCH may hold marker-like lines other than `=======` and REPLACE may hold any line but a
 * REPLACE marker. Marker lines may carry trailing whitespace; CRLF diffs are read as LF. Text
 * outside blocks is ignored. Never throws.
 */
export function parseDiff(diff: string): ParseResult {
  const lines = diff.split('\n');
  const blocks: ParsedBlock[] = [];
  let state: 'outside' | 'search' | 'replace' = 'outside';
  let current: ParsedBlock | null = null;
  for (let k = 0; k < lines.length; k++) {
    const raw = lines[k];
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const marker = trimEndBlanks(line);
    if (state === 'outside') {
      if (SEARCH_MARKER.test(marker)) {
        current = { index: blocks.length + 1, diffLine: k + 1, search: [], replace: [] };
        state = 'search';
      }
    } else if (state === 'search') {
      if (DIVIDER_MARKER.test(marker)) state = 'replace';
      else current!.search.push(line);
    } else if (REPLACE_MARKER.test(marker)) {
      blocks.push(current!);
      current = null;
      state = 'outside';
    } else {
      current!.replace.push(line);
    }
  }
  if (current !== null) {
    const missing = state === 'search' ? '`=======` (end of SEARCH)' : '`+++++++ REPLACE` (end of block)';
    return {
      ok: false,
      block: current.index,
      error:
        `block ${current.index} (opened at diff line ${current.diffLine}) has no ${missing}; ` +
        `every block must be closed:\n${SHAPE}`,
    };
  }
  if (blocks.length === 0) {
    return { ok: false, error: `no SEARCH/REPLACE block found; write each edit as:\n${SHAPE}` };
  }
  return { ok: true, blocks };
}
