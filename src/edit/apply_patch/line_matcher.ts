import { FileLines } from './file_lines.js';

/**
 * Finds where a sequence of patch lines occurs in a file, with the reference format's ladder of
 * strictness: exact, then ignoring trailing whitespace, then ignoring surrounding whitespace, then
 * also folding typographic punctuation to ASCII. The first level with any match wins.
 *
 * Positions come from an index of the lines the patch mentions, built once per level for the
 * whole file, so locating every chunk (and every candidate, for the ambiguity check) costs a
 * pass over the file per level used rather than a pass per chunk. The exact level, which nearly
 * every patch needs alone, is indexed during the pass that splits the file into lines.
 */

const TYPOGRAPHIC = /[\u2010-\u2015\u2212\u2018-\u201f\u00a0\u2002-\u200a\u202f\u205f\u3000]/g;

function foldTypographic(char: string): string {
  const code = char.charCodeAt(0);
  if ((code >= 0x2010 && code <= 0x2015) || code === 0x2212) return '-';
  if (code >= 0x2018 && code <= 0x201b) return "'";
  if (code >= 0x201c && code <= 0x201f) return '"';
  return ' ';
}

const LEVELS: ReadonlyArray<(line: string) => string> = [
  (line) => line,
  (line) => line.trimEnd(),
  (line) => line.trim(),
  (line) => line.trim().replace(TYPOGRAPHIC, foldTypographic),
];

const FINGERPRINT_MASK = 0xffff;

/**
 * A cheap hash of a line from its length and eight of its characters spread along it, read in
 * place. Lets the exact index skip nearly every file line without slicing and hashing it.
 */
function fingerprint(text: string, start: number, end: number): number {
  const length = end - start;
  if (length === 0) return 0;
  let hash = length;
  for (let eighth = 0; eighth < 8; eighth++) {
    hash = (Math.imul(hash, 31) + text.charCodeAt(start + ((eighth * length) >> 3))) | 0;
  }
  hash = (Math.imul(hash, 31) + text.charCodeAt(end - 1)) | 0;
  return (hash ^ (hash >>> 16)) & FINGERPRINT_MASK;
}

/**
 * Splits `text` into lines and indexes, in the same pass, where each of `patternLines` (every
 * line any later search will look for) occurs exactly.
 */
export function indexFile(
  text: string,
  patternLines: readonly string[],
): { file: FileLines; matcher: LineMatcher } {
  const exact = new Map<string, number[]>(patternLines.map((line) => [line, []]));
  const wanted = new Uint8Array(FINGERPRINT_MASK + 1);
  for (const line of exact.keys()) wanted[fingerprint(line, 0, line.length)] = 1;
  const file = new FileLines(text, (index, start, end) => {
    if (wanted[fingerprint(text, start, end)] === 1) exact.get(text.slice(start, end))?.push(index);
  });
  return { file, matcher: new LineMatcher(file, patternLines, exact) };
}

export class LineMatcher {
  private readonly indexes: Array<Map<string, number[]> | undefined>;

  /** Use `indexFile`, which builds `exactIndex` while splitting the text. */
  constructor(
    private readonly file: FileLines,
    private readonly patternLines: readonly string[],
    exactIndex: Map<string, number[]>,
  ) {
    this.indexes = [exactIndex];
  }

  /** Every match of `pattern` starting at or after `from` (ascending), at the first level with one. */
  findAll(pattern: readonly string[], from: number): number[] | null {
    if (pattern.length === 0 || pattern.length > this.file.lineCount - from) return null;
    for (let level = 0; level < LEVELS.length; level++) {
      const starts = this.startsAtLevel(level, pattern, from);
      if (starts.length > 0) return starts;
    }
    return null;
  }

  /** Whether `pattern` matches at exactly `start`, at any level. */
  matchesAt(pattern: readonly string[], start: number): boolean {
    if (start < 0 || start + pattern.length > this.file.lineCount) return false;
    return LEVELS.some((key) =>
      pattern.every((line, offset) => key(this.file.line(start + offset)) === key(line)),
    );
  }

  private startsAtLevel(level: number, pattern: readonly string[], from: number): number[] {
    const key = LEVELS[level];
    const index = this.index(level);
    const keys = pattern.map(key);
    // Walk the occurrences of the pattern's rarest line: fewest candidates to verify.
    let anchor = 0;
    let anchorPositions: number[] = [];
    for (let offset = 0; offset < keys.length; offset++) {
      const positions = index.get(keys[offset]);
      if (positions === undefined) return [];
      if (offset === 0 || positions.length < anchorPositions.length) {
        anchor = offset;
        anchorPositions = positions;
      }
    }
    const starts: number[] = [];
    const lastStart = this.file.lineCount - keys.length;
    for (let i = lowerBound(anchorPositions, from + anchor); i < anchorPositions.length; i++) {
      const start = anchorPositions[i] - anchor;
      if (start > lastStart) break;
      let matched = true;
      for (let offset = 0; offset < keys.length && matched; offset++) {
        if (offset !== anchor && key(this.file.line(start + offset)) !== keys[offset]) matched = false;
      }
      if (matched) starts.push(start);
    }
    return starts;
  }

  /** The looser levels are only needed when the exact one finds nothing: built on demand. */
  private index(level: number): Map<string, number[]> {
    const existing = this.indexes[level];
    if (existing !== undefined) return existing;
    const key = LEVELS[level];
    const index = new Map<string, number[]>(this.patternLines.map((line) => [key(line), []]));
    for (let i = 0; i < this.file.lineCount; i++) index.get(key(this.file.line(i)))?.push(i);
    this.indexes[level] = index;
    return index;
  }
}

/** First index whose value is >= target in an ascending array. */
function lowerBound(values: readonly number[], target: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (values[middle] < target) low = middle + 1;
    else high = middle;
  }
  return low;
}
