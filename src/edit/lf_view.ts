import { type Eol, firstBreakWithin, withEnding } from './line_endings.js';

/**
 * The text with every line break written as LF, plus a way back to offsets in the original. Lets
 * an engine search with LF-only strings in a CRLF, CR or mixed file and still splice the original.
 * `crBreaks`: a lone CR is a line break too (a CR file, see line_endings.ts); otherwise it is text.
 */
export interface LfView {
  readonly text: string;
  /** Offset in the original text of view offset `offset`. */
  toOriginal(offset: number): number;
}

export function lfView(original: string, crBreaks: boolean): LfView {
  const text = toLf(original, crBreaks);
  if (!original.includes('\r\n')) return { text, toOriginal: (offset) => offset };
  // View offsets of the "\n" of every folded CRLF, ascending (a lone CR keeps its length).
  const folded: number[] = [];
  let from = 0;
  for (;;) {
    const at = original.indexOf('\r\n', from);
    if (at === -1) break;
    folded.push(at - folded.length);
    from = at + 2;
  }
  // Each folded CRLF before the offset adds back one "\r".
  return { text, toOriginal: (offset) => offset + countBelow(folded, offset) };
}

/** A change found in a view: replace view offsets `start` to `end` by `text` (LF line breaks). */
export interface ViewEdit {
  start: number;
  end: number;
  text: string;
}

/**
 * The original with `edits` (ascending, not overlapping) made. Each replacement's line breaks
 * are written as the first break of the text it replaces, so mixed files stay as they were
 * around the edit, or as the file's own `eol` where that text holds none.
 */
export function applyViewEdits(
  original: string,
  view: LfView,
  edits: readonly ViewEdit[],
  crBreaks: boolean,
  eol: Eol,
): string {
  const pieces: string[] = [];
  let copied = 0;
  for (const edit of edits) {
    const from = view.toOriginal(edit.start);
    const to = view.toOriginal(edit.end);
    const ending = firstBreakWithin(original, from, to, crBreaks) ?? eol;
    pieces.push(original.slice(copied, from), withEnding(edit.text, ending));
    copied = to;
  }
  pieces.push(original.slice(copied));
  return pieces.join('');
}

/** `text` with CRLF (and, with `crBreaks`, a lone CR) written as LF. */
export function toLf(text: string, crBreaks: boolean): string {
  if (!text.includes('\r')) return text;
  return crBreaks ? text.replace(/\r\n?/g, '\n') : text.replaceAll('\r\n', '\n');
}

function countBelow(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle] < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
