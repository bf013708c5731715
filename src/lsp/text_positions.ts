import type { Position } from 'vscode-languageserver-protocol';

/** Offsets of each line's start in `text` (LF or CRLF lines; a lone CR is not a line break). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

/** A line's text without its line ending (0-based line). */
export function lineText(text: string, starts: readonly number[], line: number): string {
  const end = line + 1 < starts.length ? starts[line + 1] : text.length;
  return text.slice(starts[line], end).replace(/\r?\n$/, '');
}

/** An LSP position (UTF-16 code units, as JavaScript strings count) as an offset into `text`, clamped to its line. */
export function offsetAt(text: string, starts: readonly number[], position: Position): number {
  if (position.line >= starts.length) return text.length;
  const length = lineText(text, starts, position.line).length;
  return starts[position.line] + Math.min(position.character, length);
}

export function positionAt(starts: readonly number[], offset: number): Position {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid] <= offset) low = mid;
    else high = mid - 1;
  }
  return { line: low, character: offset - starts[low] };
}
