import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/**
 * A line longer than this is shown in pieces of this many bytes: a 50 MB line without a break is
 * never read whole.
 */
export const MAX_LINE_BYTES = 16 * 1024;
/** Bytes a search reads at a time. */
const SEARCH_CHUNK = 1024 * 1024;
const NEWLINE = 0x0a;

/** Bytes to show, read a range at a time: a file on disk or a text already in memory. */
export interface ByteSource {
  readonly size: number;
  read(start: number, length: number): Buffer;
  close(): void;
}

/** A file read where it lies: only the ranges asked for are read, with one descriptor kept open. */
export function fileSource(path: string): ByteSource {
  const fd = openSync(path, 'r');
  const size = fstatSync(fd).size;
  return {
    size,
    read(start, length) {
      const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - start)));
      let done = 0;
      while (done < buffer.length) {
        const got = readSync(fd, buffer, done, buffer.length - done, start + done);
        if (got === 0) break;
        done += got;
      }
      return buffer.subarray(0, done);
    },
    close: () => closeSync(fd),
  };
}

export function textSource(text: string): ByteSource {
  const bytes = Buffer.from(text);
  return {
    size: bytes.length,
    read: (start, length) => bytes.subarray(start, Math.min(bytes.length, start + length)),
    close: () => undefined,
  };
}

/** Moves `at` back to the start of a UTF-8 character (continuation bytes are 10xxxxxx). */
function charStart(bytes: Buffer, at: number): number {
  let i = at;
  while (i > 0 && i < bytes.length && (bytes[i] & 0xc0) === 0x80) i--;
  return i;
}

function nextCharStart(bytes: Buffer, at: number): number {
  let i = at;
  while (i < bytes.length && (bytes[i] & 0xc0) === 0x80) i++;
  return i;
}

/**
 * The lines of a source, found by their byte offsets: each step reads at most a line (or a
 * piece of one) around where it is, so what is held is what is shown, whatever the size.
 */
export class TextLines {
  constructor(readonly source: ByteSource) {}

  get size(): number {
    return this.source.size;
  }

  /** The line (or piece) starting at `start`, without its break, and where the next one starts. */
  lineAt(start: number): { text: string; next?: number } {
    const bytes = this.source.read(start, MAX_LINE_BYTES + 1);
    const newline = bytes.indexOf(NEWLINE);
    if (newline >= 0 && newline <= MAX_LINE_BYTES) {
      const next = start + newline + 1;
      return {
        text: bytes.subarray(0, newline).toString('utf8').replace(/\r$/, ''),
        next: next < this.size ? next : undefined,
      };
    }
    if (start + bytes.length >= this.size) return { text: bytes.toString('utf8') };
    const cut = Math.max(1, charStart(bytes, MAX_LINE_BYTES));
    return { text: bytes.subarray(0, cut).toString('utf8'), next: start + cut };
  }

  /** Where the line before the one at `start` starts; undefined at the first line. */
  lineBefore(start: number): number | undefined {
    if (start <= 0) return undefined;
    const from = Math.max(0, start - MAX_LINE_BYTES - 1);
    const bytes = this.source.read(from, start - from);
    // The line before ends with the break just before `start` (or is a piece of a long line).
    const end = bytes[bytes.length - 1] === NEWLINE ? bytes.length - 1 : bytes.length;
    const newline = bytes.lastIndexOf(NEWLINE, end - 1);
    if (newline >= 0) return from + newline + 1;
    if (from === 0) return 0;
    return from + charStart(bytes, bytes.length - MAX_LINE_BYTES);
  }

  /** Where the last line starts. */
  lastLine(): number {
    return this.lineBefore(this.size) ?? 0;
  }

  /** Where the line holding the byte at `offset` starts. */
  lineOf(offset: number): number {
    if (offset <= 0) return 0;
    return this.lineBefore(offset + 1) ?? 0;
  }

  /**
   * The first match of `pattern` in the lines from `from` on (forward) or before `from`
   * (backward), as the byte offset of its line's start; the text is read a megabyte at a time.
   */
  find(pattern: RegExp, from: number, backward = false): number | undefined {
    return backward ? this.findBackward(pattern, from) : this.findForward(pattern, from);
  }

  private findForward(pattern: RegExp, from: number): number | undefined {
    let at = from;
    while (at < this.size) {
      const bytes = this.source.read(at, SEARCH_CHUNK);
      const end = at + bytes.length >= this.size ? bytes.length : wholeLines(bytes);
      const text = bytes.subarray(0, end).toString('utf8');
      const match = firstMatch(pattern, text);
      if (match !== undefined) return this.lineOf(at + Buffer.byteLength(text.slice(0, match)));
      at += end;
    }
    return undefined;
  }

  private findBackward(pattern: RegExp, before: number): number | undefined {
    let end = before;
    while (end > 0) {
      const from = Math.max(0, end - SEARCH_CHUNK);
      const bytes = this.source.read(from, end - from);
      // Start at a line's start, so no match is split between two reads.
      const first = from === 0 ? 0 : bytes.indexOf(NEWLINE) + 1 || nextCharStart(bytes, 0);
      const text = bytes.subarray(first).toString('utf8');
      const match = lastMatch(pattern, text);
      if (match !== undefined) return this.lineOf(from + first + Buffer.byteLength(text.slice(0, match)));
      if (from === 0) break;
      end = Math.min(end - 1, from + first);
    }
    return undefined;
  }
}

/** How many bytes of a read end with a whole line (all of it when no line ends inside). */
function wholeLines(bytes: Buffer): number {
  const newline = bytes.lastIndexOf(NEWLINE);
  return newline >= 0 ? newline + 1 : charStart(bytes, bytes.length - 1) || bytes.length;
}

function firstMatch(pattern: RegExp, text: string): number | undefined {
  const found = new RegExp(pattern.source, pattern.flags.replace('g', '')).exec(text);
  return found ? found.index : undefined;
}

function lastMatch(pattern: RegExp, text: string): number | undefined {
  let last: number | undefined;
  for (const found of text.matchAll(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`)))
    last = found.index;
  return last;
}
