/** Looks at a record's bytes before it is decoded: a record it refuses is never decoded. */
export type RecordSelect = (bytes: Buffer, start: number, end: number) => boolean;

/**
 * Cuts a program's output, chunk by chunk, into records ended by one byte (NUL, a line break)
 * and hands each to `onRecord`, which returns false to take no more. The records of a chunk
 * are decoded in one go and split (a decode per record costs more than the rest of a long
 * listing's handling); the separator, an ASCII byte, never falls inside a UTF-8 character. A
 * record points into its chunk's text: one kept from a long listing is copied (`keptPath`).
 */
export class RecordSplitter {
  private rest: Buffer | undefined;
  private readonly mark: string;

  constructor(
    private readonly separator: number,
    private readonly onRecord: (record: string) => boolean | undefined,
    private readonly select?: RecordSelect,
  ) {
    this.mark = String.fromCharCode(separator);
  }

  /** Takes the next chunk; false when `onRecord` asked for no more. */
  push(chunk: Buffer): boolean {
    let start = 0;
    // A record begun in an earlier chunk: only its own bytes are copied, not the chunk's.
    if (this.rest) {
      const end = chunk.indexOf(this.separator);
      if (end < 0) {
        this.rest = Buffer.concat([this.rest, chunk]);
        return true;
      }
      const record = Buffer.concat([this.rest, chunk.subarray(0, end)]);
      this.rest = undefined;
      start = end + 1;
      if (this.emit(record, 0, record.length) === false) return false;
    }
    const last = chunk.lastIndexOf(this.separator);
    if (last >= start) {
      if (!this.emitAll(chunk, start, last)) return false;
      start = last + 1;
    }
    if (start < chunk.length) this.rest = chunk.subarray(start);
    return true;
  }

  /** The end of the output: a last record without its separator is handed on too. */
  end(): void {
    const rest = this.rest;
    this.rest = undefined;
    if (rest && rest.length > 0) this.emit(rest, 0, rest.length);
  }

  /** The records in `chunk` from `start` up to the separator at `last`. */
  private emitAll(chunk: Buffer, start: number, last: number): boolean {
    if (this.select) {
      for (let end = chunk.indexOf(this.separator, start); end >= 0 && end <= last; ) {
        if (this.emit(chunk, start, end) === false) return false;
        start = end + 1;
        end = chunk.indexOf(this.separator, start);
      }
      return true;
    }
    const records = chunk.toString('utf8', start, last).split(this.mark);
    for (const record of records) if (this.onRecord(record) === false) return false;
    return true;
  }

  private emit(bytes: Buffer, start: number, end: number): boolean | undefined {
    if (this.select && !this.select(bytes, start, end)) return undefined;
    return this.onRecord(bytes.toString('utf8', start, end));
  }
}
