import type { Position, TextEdit } from 'vscode-languageserver-protocol';
import { lineStarts, offsetAt, positionAt } from './text_positions.js';

const IDENTIFIER_CHAR = /[\p{L}\p{N}_$]/u;

/**
 * The places in `text` where `word` stands as a whole word and none of the rename's edits of
 * the file covers it: uses the server's rename would leave with the old name (or strings and
 * comments that mention it, which a text search cannot tell apart).
 */
export function renameLeftovers(text: string, word: string, edits: readonly TextEdit[]): Position[] {
  if (word === '') return [];
  const starts = lineStarts(text);
  const covered = edits.map((e) => [
    offsetAt(text, starts, e.range.start),
    offsetAt(text, starts, e.range.end),
  ]);
  const left: Position[] = [];
  for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + word.length)) {
    const end = at + word.length;
    if (IDENTIFIER_CHAR.test(text[at - 1] ?? '') || IDENTIFIER_CHAR.test(text[end] ?? '')) continue;
    if (covered.some(([from, to]) => from <= at && end <= to)) continue;
    left.push(positionAt(starts, at));
  }
  return left;
}
