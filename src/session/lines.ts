import * as fs from 'node:fs';

/**
 * Line-by-line reading of session logs in fixed-size chunks, forwards or from the end, so a log
 * of any size is read without ever holding it as one string (V8 strings stop near 512 MB).
 */

/** One line of a file, without its newline. */
export interface FileLine {
  bytes: Buffer;
  /** Byte offset of the line's first byte in the file. */
  start: number;
  /** Whether the line ends the file without a newline (a write cut short, or not yet ended). */
  unterminated: boolean;
  /** The line was longer than `MAX_LINE_BYTES`: `bytes` is empty and the line can't be used. */
  oversized: boolean;
}

const CHUNK_BYTES = 1024 * 1024;
/** Far past the largest record the log writes (1 MB); anything longer is damage. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

/** Accumulates the pieces of one line, giving up on its content past `MAX_LINE_BYTES`. */
class LineBuilder {
  private pieces: Buffer[] = [];
  private length = 0;
  private oversized = false;

  add(piece: Buffer, atFront: boolean): void {
    if (this.oversized || piece.length === 0) return;
    this.length += piece.length;
    if (this.length > MAX_LINE_BYTES) {
      this.oversized = true;
      this.pieces = [];
      return;
    }
    if (atFront) this.pieces.unshift(piece);
    else this.pieces.push(piece);
  }

  take(start: number, unterminated: boolean): FileLine {
    const line: FileLine = {
      bytes: this.pieces.length === 1 ? this.pieces[0] : Buffer.concat(this.pieces),
      start,
      unterminated,
      oversized: this.oversized,
    };
    this.pieces = [];
    this.length = 0;
    this.oversized = false;
    return line;
  }
}

/**
 * Calls `visit` for each line, first to last; `visit` returns false to stop. Reading stops
 * near `limit` bytes: a line that goes on past it is not visited.
 */
export function forEachLine(
  path: string,
  visit: (line: FileLine) => unknown,
  limit = Number.POSITIVE_INFINITY,
): void {
  const fd = fs.openSync(path, 'r');
  try {
    const builder = new LineBuilder();
    let position = 0;
    let lineStart = 0;
    for (;;) {
      if (position >= limit) return;
      const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
      const read = fs.readSync(fd, chunk, 0, chunk.length, position);
      if (read === 0) break;
      let from = 0;
      for (let nl = chunk.indexOf(0x0a, from); nl !== -1 && nl < read; nl = chunk.indexOf(0x0a, from)) {
        builder.add(chunk.subarray(from, nl), false);
        if (visit(builder.take(lineStart, false)) === false) return;
        from = nl + 1;
        lineStart = position + from;
      }
      builder.add(chunk.subarray(from, read), false);
      position += read;
    }
    if (position > lineStart) visit(builder.take(lineStart, true));
  } finally {
    fs.closeSync(fd);
  }
}

/** Calls `visit` for each line, last to first, reading from the end; `visit` returns false to stop. */
export function forEachLineBackward(path: string, visit: (line: FileLine) => unknown): void {
  const fd = fs.openSync(path, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const builder = new LineBuilder();
    let position = size;
    // The file's last line is unterminated unless the file ends with a newline.
    let unterminated = true;
    let first = true;
    while (position > 0) {
      const length = Math.min(CHUNK_BYTES, position);
      position -= length;
      const chunk = Buffer.allocUnsafe(length);
      fs.readSync(fd, chunk, 0, length, position);
      let end = length;
      while (end > 0) {
        const nl = chunk.lastIndexOf(0x0a, end - 1);
        if (nl === -1) break;
        builder.add(chunk.subarray(nl + 1, end), true);
        // A newline that ends the file closes no line of its own.
        const endsFile = first && nl === length - 1;
        if (endsFile) unterminated = false;
        else if (visit(builder.take(position + nl + 1, unterminated)) === false) return;
        unterminated = false;
        first = false;
        end = nl;
      }
      builder.add(chunk.subarray(0, end), true);
      first = false;
    }
    if (size > 0) visit(builder.take(0, unterminated));
  } finally {
    fs.closeSync(fd);
  }
}
