/**
 * The text with every CRLF folded to LF, plus a way back to offsets in the original. Lets an
 * engine search with LF-only strings in a CRLF (or mixed) file and still splice the original.
 */
export interface LfView {
  readonly text: string;
  /** Offset in the original text of view offset `offset`. */
  toOriginal(offset: number): number;
}

export function lfView(original: string): LfView {
  if (!original.includes('\r\n')) return { text: original, toOriginal: (offset) => offset };
  // View offsets of the "\n" of every folded CRLF, ascending.
  const folded: number[] = [];
  let from = 0;
  for (;;) {
    const at = original.indexOf('\r\n', from);
    if (at === -1) break;
    folded.push(at - folded.length);
    from = at + 2;
  }
  const text = original.replaceAll('\r\n', '\n');
  // Each folded CRLF before the offset adds back one "\r".
  return { text, toOriginal: (offset) => offset + countBelow(folded, offset) };
}

export function toLf(text: string): string {
  return text.replaceAll('\r\n', '\n');
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
