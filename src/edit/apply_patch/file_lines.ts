import { countCrs, type Eol, eolOf, isCrFile, LineWalker, lineContentEnd } from '../line_endings.js';

/**
 * A file viewed as lines without terminators (what patches match against). Only line offsets
 * are stored; a line's text is sliced when asked for: holding a million line strings would cost
 * more in allocation and garbage collection than all the matching put together.
 *
 * Lines end in "\n" or "\r\n", and in a CR file (lone CRs are most of its breaks) at a lone
 * "\r" too, as line_endings.ts decides for every engine. Every line keeps its own terminator.
 */
export class FileLines {
  readonly lineCount: number;
  /** The ending most lines use; written after new lines that have no neighbour to copy. */
  readonly eol: Eol;
  /** Whether the last line has a terminator (true for an empty file). */
  readonly finalNewline: boolean;
  /** Whether a lone "\r" ends a line (a CR file). */
  private readonly crBreaks: boolean;
  /** starts[i] is the offset of line i; starts[lineCount] === text.length. */
  private readonly starts: Int32Array;

  /**
   * `visitLine` sees every line's content offsets during the one pass that finds them, while
   * the line is still in the CPU cache; on large files a second pass costs a third more.
   */
  constructor(
    readonly text: string,
    visitLine?: (index: number, start: number, end: number) => void,
  ) {
    // A typed array: a plain array of a million offsets costs twice the memory.
    let starts: Int32Array = new Int32Array(Math.max(16, text.length >> 5));
    // The file's ending (line_endings.ts): its CRs are counted first, its LFs while splitting.
    const crs = countCrs(text);
    const crBreaks = isCrFile(text, crs);
    const walker = new LineWalker(text, crBreaks);
    let count = 0;
    let lfBreaks = 0;
    let contentEnd = 0;
    for (let start = 0; start < text.length; ) {
      const next = walker.nextLineStart(start);
      if (text.charCodeAt(next - 1) === 10) lfBreaks++;
      contentEnd = lineContentEnd(text, start, next, crBreaks);
      visitLine?.(count, start, contentEnd);
      if (++count + 1 >= starts.length) starts = grown(starts);
      starts[count] = next;
      start = next;
    }
    starts[count] = text.length;
    this.lineCount = count;
    this.starts = starts;
    this.eol = eolOf(crs, lfBreaks, crBreaks);
    this.crBreaks = crBreaks;
    this.finalNewline = count === 0 || contentEnd < text.length;
  }

  /** Offset where line `index` starts (`lineCount` gives the text length). */
  offset(index: number): number {
    return this.starts[index];
  }

  /** Line `index` without its terminator. */
  line(index: number): string {
    return this.text.slice(this.starts[index], this.contentEnd(index));
  }

  /** The terminator of line `index` as written ("" for a last line without one). */
  ending(index: number): string {
    return this.text.slice(this.contentEnd(index), this.starts[index + 1]);
  }

  /** Offset just past line `index`'s content, before its terminator. */
  private contentEnd(index: number): number {
    return lineContentEnd(this.text, this.starts[index], this.starts[index + 1], this.crBreaks);
  }

  /** All lines, for the rare paths (error reports) that need them at once. */
  toArray(): string[] {
    return Array.from({ length: this.lineCount }, (_, index) => this.line(index));
  }
}

function grown(array: Int32Array): Int32Array {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}
