/**
 * A file viewed as lines without terminators (what patches match against). Only line offsets
 * are stored; a line's text is sliced when asked for: holding a million line strings would cost
 * more in allocation and garbage collection than all the matching put together.
 *
 * Lines end in "\n" or "\r\n"; a file with no "\n" at all but some "\r" (classic Mac) is
 * split at each "\r" instead. Every line keeps its own terminator.
 */
export class FileLines {
  readonly lineCount: number;
  /** The ending most lines use; written after new lines that have no neighbour to copy. */
  readonly eol: '\n' | '\r\n' | '\r';
  /** Whether the last line has a terminator (true for an empty file). */
  readonly finalNewline: boolean;
  /** The character that ends a line: "\r" in a CR-only file. */
  private readonly separator: number;
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
    const crOnly = !text.includes('\n') && text.includes('\r');
    const separator = crOnly ? '\r' : '\n';
    let newlines = 0;
    let crlf = 0;
    for (let at = text.indexOf(separator); at !== -1; at = text.indexOf(separator, at + 1)) {
      const start = starts[newlines];
      const isCrlf = !crOnly && at > start && text.charCodeAt(at - 1) === 13;
      if (isCrlf) crlf++;
      visitLine?.(newlines, start, isCrlf ? at - 1 : at);
      if (++newlines + 1 >= starts.length) starts = grown(starts);
      starts[newlines] = at + 1;
    }
    // A final newline ends the last line rather than starting an empty one.
    const lineCount = starts[newlines] === text.length ? newlines : newlines + 1;
    if (lineCount > newlines) visitLine?.(newlines, starts[newlines], text.length);
    starts[lineCount] = text.length;
    this.lineCount = lineCount;
    this.starts = starts;
    this.separator = separator.charCodeAt(0);
    this.eol = crOnly ? '\r' : crlf > newlines - crlf ? '\r\n' : '\n';
    this.finalNewline = lineCount === newlines;
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

  /** Offset just past line `index`'s content, before its "\n" or "\r\n". */
  private contentEnd(index: number): number {
    const start = this.starts[index];
    let end = this.starts[index + 1];
    if (end > start && this.text.charCodeAt(end - 1) === this.separator) end--;
    if (end > start && this.text.charCodeAt(end - 1) === 13 && this.text.charCodeAt(end) === 10) end--;
    return end;
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
