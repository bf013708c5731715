import { trimEndBlanks } from './lines.js';
import { type LineKind, lineKind, MARKER_LENGTH, markerProblem, unindented } from './markers.js';

export { MARKER_LENGTH } from './markers.js';

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

/** A block being read, and the last line of its SEARCH that looked like a divider and was not. */
type OpenBlock = ParsedBlock & { nearDivider?: number };

const SKIP_LINE = `${'.'.repeat(MARKER_LENGTH)} SKIP`;

/** Whether a SEARCH line is the `....... SKIP` separator (trailing spaces and tabs ignored). */
export function isSkipLine(line: string): boolean {
  return trimEndBlanks(line) === SKIP_LINE;
}

const SHAPE = '------- SEARCH\n<lines to find>\n=======\n<lines to write>\n+++++++ REPLACE';

type State = 'outside' | 'search' | 'replace';

/** A refusal for the line at `k` (0-based), or undefined when the line is fine where it stands. */
function misplaced(
  state: State,
  kind: LineKind,
  line: string,
  k: number,
  block: { index: number; diffLine: number; nearDivider?: number },
): string | undefined {
  const at = `diff line ${k + 1}`;
  if (state === 'outside') {
    const where = `block ${block.index}, ${at}`;
    if (kind === 'bad-search' || kind === 'bad-replace' || kind === 'near-divider')
      return `${where}: ${markerProblem(line, kind)}`;
    if (kind === 'divider')
      return `${where}: \`=======\` stands outside a block; a block opens with \`------- SEARCH\``;
    if (kind === 'replace')
      return `${where}: \`${trimEndBlanks(line)}\` closes no block; a block opens with \`------- SEARCH\``;
    return undefined;
  }
  // Inside a block an indented line is content, whatever it looks like.
  if (!unindented(line)) return undefined;
  const opened = `block ${block.index} (opened at diff line ${block.diffLine})`;
  if (state === 'search' && (kind === 'replace' || kind === 'bad-replace')) {
    const near = block.nearDivider;
    const hint =
      near === undefined ? '' : ` (diff line ${near} is no divider: ${MARKER_LENGTH} \`=\` exactly)`;
    return `${opened}: \`${trimEndBlanks(line)}\` at ${at} comes before the \`=======\` that ends SEARCH${hint}`;
  }
  if (kind === 'bad-search' || kind === 'bad-replace')
    return `${opened}, ${at}: ${markerProblem(line, kind)}`;
  return undefined;
}

/**
 * Splits a diff into blocks. Markers are recognised in order only: a SEARCH marker opens a block,
 * the first `=======` after it ends SEARCH, and the first REPLACE marker after that closes the
 * block, so SEARCH may hold a SEARCH marker line and REPLACE may hold `=======` and SEARCH marker
 * lines. Marker lines may carry trailing whitespace; CRLF diffs are read as LF. Text outside
 * blocks is ignored, but a malformed block is refused, naming it and its line: a marker-shaped
 * line that is not a marker (wrong length, indented or misspelt outside a block; wrong length or
 * misspelt inside one), `=======` or a REPLACE marker outside a block, a REPLACE marker before
 * `=======`, a block left open. Never throws.
 */
export function parseDiff(diff: string): ParseResult {
  const lines = diff.split('\n');
  const blocks: ParsedBlock[] = [];
  let state: State = 'outside';
  let current: OpenBlock = { index: 1, diffLine: 0, search: [], replace: [] };
  for (let k = 0; k < lines.length; k++) {
    const raw = lines[k];
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const kind = lineKind(line);
    const problem = misplaced(state, kind, line, k, current);
    if (problem !== undefined) return refuse(current.index, problem);
    if (state === 'outside') {
      if (kind === 'search') {
        current = { index: blocks.length + 1, diffLine: k + 1, search: [], replace: [] };
        state = 'search';
      }
    } else if (state === 'search') {
      if (kind === 'divider') state = 'replace';
      else current.search.push(line);
      if (kind === 'near-divider') current.nearDivider = k + 1;
    } else if (kind === 'replace') {
      const { nearDivider: _, ...block } = current;
      blocks.push(block);
      current = { index: blocks.length + 1, diffLine: 0, search: [], replace: [] };
      state = 'outside';
    } else {
      current.replace.push(line);
    }
  }
  if (state !== 'outside') {
    const missing = state === 'search' ? '`=======` (end of SEARCH)' : '`+++++++ REPLACE` (end of block)';
    return refuse(
      current.index,
      `block ${current.index} (opened at diff line ${current.diffLine}) has no ${missing}; every block must be closed`,
    );
  }
  if (blocks.length === 0) {
    return { ok: false, error: `no SEARCH/REPLACE block found; write each edit as:\n${SHAPE}` };
  }
  return { ok: true, blocks };
}

function refuse(block: number, problem: string): ParseResult {
  return { ok: false, block, error: `${problem}; write each block as:\n${SHAPE}` };
}
