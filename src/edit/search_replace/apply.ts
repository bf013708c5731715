import { trailingBreak } from '../line_endings.js';
import { hasLineBreak } from './lines.js';
import { anchorsOf, matchBlock } from './match.js';
import { parseDiff } from './parse.js';
import { scanFile } from './scan.js';
import { segmentSearch } from './segments.js';

/** A 1-based, inclusive line range. */
export interface LineRange {
  start: number;
  end: number;
}

/**
 * What one block did. `original` is the range it replaced in the file as it was; `replaced` is the
 * range its REPLACE lines occupy in the new content. When REPLACE is empty the lines were deleted
 * and `replaced` is the empty range `{ start: s, end: s - 1 }` (so `end < start`), where `s` is the
 * new line number of the line that followed the deleted ones. `skipped` holds, for each SKIP line
 * of the block in order, how many file lines it covered (all of them are replaced too).
 */
export interface BlockReport {
  block: number;
  original: LineRange;
  replaced: LineRange;
  skipped: number[];
}

/**
 * The outcome of `replaceInFile`. A refusal never carries content; `block` names the first block
 * that failed, and `candidates` lists every start line (1-based) when that block matched several.
 */
export type ReplaceResult =
  | { ok: true; content: string; blocks: BlockReport[] }
  | { ok: false; error: string; block?: number; candidates?: number[] };

interface Placed {
  block: number;
  start: number;
  end: number;
  skipped: number[];
  replace: string[];
}

const ALL_OR_NOTHING = 'No block was applied: the blocks of one call are applied all together or not at all.';

function refuse(error: string, total: number, block?: number, candidates?: number[]): ReplaceResult {
  const text = total > 1 ? `${error}\n${ALL_OR_NOTHING}` : error;
  const result: ReplaceResult = { ok: false, error: text };
  if (block !== undefined) result.block = block;
  if (candidates !== undefined) result.candidates = candidates;
  return result;
}

function showRange(start: number, end: number): string {
  return start === end ? `line ${start + 1}` : `lines ${start + 1}-${end + 1}`;
}

/**
 * Applies a SEARCH/REPLACE diff to `original`. Every block is matched against the original text;
 * all blocks must match exactly one place and not overlap, or nothing is applied. Line endings
 * (the file's own, for every written line), a leading BOM and the presence of a final newline are
 * preserved; lines outside the blocks are copied byte for byte. Never throws: every refusal is a
 * value with a message the caller can act on.
 */
export function replaceInFile(original: string, diff: string): ReplaceResult {
  const parsed = parseDiff(diff);
  if (!parsed.ok) return refuse(parsed.error, 1, parsed.block);
  const blocks = parsed.blocks;
  const total = blocks.length;
  const segmented = blocks.map((b) => segmentSearch(b.search));
  const { ix, hits: anchorHits } = scanFile(original, segmented.flatMap(anchorsOf));

  const placed: Placed[] = [];
  const errors: string[] = [];
  let failed: number | undefined;
  let candidates: number[] | undefined;
  for (const [k, b] of blocks.entries()) {
    const m = matchBlock(ix, segmented[k], anchorHits);
    if (m.ok) {
      placed.push({ block: b.index, start: m.start, end: m.end, skipped: m.skipped, replace: b.replace });
      continue;
    }
    errors.push(`block ${b.index} of ${total}: ${m.error}`);
    if (failed === undefined) {
      failed = b.index;
      candidates = m.candidates;
    }
  }
  if (errors.length > 0) return refuse(errors.join('\n\n'), total, failed, candidates);

  placed.sort((a, b) => a.start - b.start || a.block - b.block);
  for (let k = 1; k < placed.length; k++) {
    const a = placed[k - 1];
    const b = placed[k];
    if (b.start <= a.end) {
      const [x, y] = a.block < b.block ? [a, b] : [b, a];
      return refuse(
        `block ${x.block} (${showRange(x.start, x.end)}) and block ${y.block} (${showRange(y.start, y.end)}) ` +
          'overlap — blocks may touch but not overlap: merge them into one block',
        total,
        y.block,
      );
    }
  }

  const text = ix.text;
  const eol = ix.eol;
  const parts: string[] = [];
  const reports: BlockReport[] = [];
  let cursor = 0;
  let delta = 0;
  for (const p of placed) {
    parts.push(text.slice(cursor, ix.lineStart[p.start]));
    const breakAfter = hasLineBreak(ix, p.end);
    if (p.replace.length > 0) {
      parts.push(p.replace.join(eol));
      if (breakAfter) parts.push(eol);
    } else if (!breakAfter) {
      // The deleted lines end the file, which has no final newline: drop the break before them.
      dropTrailingBreak(parts, ix.crBreaks);
    }
    cursor = ix.lineStart[p.end + 1];
    const newStart = p.start + 1 + delta;
    reports.push({
      block: p.block,
      original: { start: p.start + 1, end: p.end + 1 },
      replaced: { start: newStart, end: newStart + p.replace.length - 1 },
      skipped: p.skipped,
    });
    delta += p.replace.length - (p.end - p.start + 1);
  }
  parts.push(text.slice(cursor));
  reports.sort((a, b) => a.block - b.block);
  return { ok: true, content: parts.join(''), blocks: reports };
}

function dropTrailingBreak(parts: string[], crBreaks: boolean): void {
  for (let k = parts.length - 1; k >= 0; k--) {
    const s = parts[k];
    if (s.length === 0) continue;
    parts[k] = s.slice(0, s.length - trailingBreak(s, crBreaks).length);
    return;
  }
}

/** One short line per block, e.g. `block 1: lines 10-14 → 10-12 (SKIP removed 37 lines)`. */
export function formatReport(blocks: readonly BlockReport[]): string {
  return blocks
    .map((b) => {
      const from =
        b.original.start === b.original.end
          ? `line ${b.original.start}`
          : `lines ${b.original.start}-${b.original.end}`;
      const to =
        b.replaced.end < b.replaced.start
          ? 'deleted'
          : b.replaced.start === b.replaced.end
            ? `${b.replaced.start}`
            : `${b.replaced.start}-${b.replaced.end}`;
      const removed = b.skipped.reduce((sum, n) => sum + n, 0);
      const skip =
        b.skipped.length === 0
          ? ''
          : b.skipped.length === 1
            ? ` (SKIP removed ${plural(removed)})`
            : ` (${b.skipped.length} SKIPs removed ${b.skipped.join(' + ')} = ${plural(removed)})`;
      return `block ${b.block}: ${from} → ${to}${skip}`;
    })
    .join('\n');
}

function plural(n: number): string {
  return n === 1 ? '1 line' : `${n} lines`;
}
