import { fileSize, readSlice } from '../tasks/output_file.js';

const CHUNK_BYTES = 64 * 1024;

/**
 * Reads the lines appended to a file since the last poll. A file that shrinks (truncated or
 * rotated) is read again from its start; a file that does not exist yet reads as empty.
 */
export class LineFollower {
  private partial = '';

  constructor(
    private readonly path: string,
    private offset: number,
    /** Returns true to stop following (e.g. a pattern matched). */
    private readonly onLine: (line: string) => boolean | Promise<boolean>,
  ) {}

  /**
   * Hands every complete new line to `onLine`; with `final` (the writer is done) the last,
   * unterminated line too. Returns true when `onLine` asked to stop.
   */
  async poll(final = false): Promise<boolean> {
    const size = await fileSize(this.path);
    if (size < this.offset) {
      this.offset = 0;
      this.partial = '';
    }
    while (this.offset < size) {
      const slice = await readSlice(this.path, this.offset, CHUNK_BYTES, final);
      if (slice.bytes === 0) break;
      this.offset += slice.bytes;
      const lines = (this.partial + slice.text).split('\n');
      this.partial = lines.pop() ?? '';
      for (const line of lines) if (await this.onLine(line.replace(/\r$/, ''))) return true;
    }
    if (final && this.partial !== '') {
      const last = this.partial;
      this.partial = '';
      return this.onLine(last);
    }
    return false;
  }
}

/** The last lines seen, bounded in count and in length per line. */
export class RecentLines {
  private readonly lines: string[] = [];
  total = 0;

  constructor(
    private readonly maxLines: number,
    private readonly maxLineChars: number,
  ) {}

  push(line: string): void {
    this.total++;
    this.lines.push(line.length > this.maxLineChars ? `${line.slice(0, this.maxLineChars)} […]` : line);
    if (this.lines.length > this.maxLines) this.lines.shift();
  }

  get kept(): readonly string[] {
    return this.lines;
  }
}
