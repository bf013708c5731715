import { type Eol, lineContentEnd } from '../line_endings.js';

/**
 * Line model of the file being edited. Lines are kept as offsets into the original text, so a
 * call builds no per-line strings: line i's normalised form (its content without leading spaces
 * and tabs) is the text from `indentEnd(ix, i)` to `contentEnd(ix, i)`. Only line starts are
 * stored; the other offsets are derived on demand for the few lines a search looks at.
 */
export interface FileIndex {
  readonly text: string;
  /** Number of lines. An empty file has none; `"a\n"` has one; `"a\nb"` has two. */
  readonly count: number;
  /** Offset where line i starts (after a BOM for line 0); `lineStart[count]` is `text.length`. */
  readonly lineStart: Int32Array;
  /** The file's line ending: the one most of its line breaks use (see line_endings.ts). */
  readonly eol: Eol;
  /** Whether a lone CR ends a line (a CR file) or is part of it. */
  readonly crBreaks: boolean;
}

const SPACE = 32;
const TAB = 9;

/** Offset of the first character at or after `start` that is not a space or a tab. */
export function skipIndent(text: string, start: number): number {
  let a = start;
  for (;;) {
    const c = text.charCodeAt(a);
    if (c !== SPACE && c !== TAB) return a;
    a++;
  }
}

/** Offset just past line i's content, before its line break (if any). */
export function contentEnd(ix: FileIndex, i: number): number {
  return lineContentEnd(ix.text, ix.lineStart[i], ix.lineStart[i + 1], ix.crBreaks);
}

/** Offset of line i's first character that is not a space or a tab (its content end if blank). */
export function indentEnd(ix: FileIndex, i: number): number {
  return skipIndent(ix.text, ix.lineStart[i]);
}

/** Whether line i has a line break after it (only the last line of a file may lack one). */
export function hasLineBreak(ix: FileIndex, i: number): boolean {
  return contentEnd(ix, i) < ix.lineStart[i + 1];
}

/** The full content of line i (indentation included, line break excluded). */
export function lineText(ix: FileIndex, i: number): string {
  return ix.text.slice(ix.lineStart[i], contentEnd(ix, i));
}

/** A SEARCH line with leading and trailing spaces and tabs removed. */
export function normaliseSearchLine(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && isBlankChar(s.charCodeAt(a))) a++;
  while (b > a && isBlankChar(s.charCodeAt(b - 1))) b--;
  return a === 0 && b === s.length ? s : s.slice(a, b);
}

/** `s` with trailing spaces and tabs removed. */
export function trimEndBlanks(s: string): string {
  let b = s.length;
  while (b > 0 && isBlankChar(s.charCodeAt(b - 1))) b--;
  return b === s.length ? s : s.slice(0, b);
}

function isBlankChar(c: number): boolean {
  return c === SPACE || c === TAB;
}

/**
 * Rule 1: a normalised SEARCH line `s` matches file line i when the line, without its leading
 * spaces and tabs, starts with `s`. An empty `s` (a blank SEARCH line) matches only a blank line.
 */
export function lineMatches(ix: FileIndex, i: number, s: string): boolean {
  const a = indentEnd(ix, i);
  if (s.length === 0) return a === contentEnd(ix, i);
  return ix.text.startsWith(s, a) && a + s.length <= contentEnd(ix, i);
}

const SHOW_MAX = 160;

/** A line for an error message: tabs shown as `→`, long lines shortened. */
export function showLine(s: string): string {
  const cut = s.length > SHOW_MAX ? `${s.slice(0, SHOW_MAX)}…` : s;
  return `\`${cut.replace(/\t/g, '→')}\``;
}
