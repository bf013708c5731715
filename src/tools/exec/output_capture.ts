import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { diskErrorText } from '../../util/disk_error.js';

/** `64 MB`, `512 KB`, or a number of bytes when it is neither. */
export function describeSize(bytes: number): string {
  const MB = 1024 * 1024;
  if (bytes >= MB && bytes % MB === 0) return `${bytes / MB} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes.toLocaleString('en-US')} bytes`;
}

/**
 * Keeps a command's output bounded in memory and on disk whatever it prints: it goes to a file
 * as it arrives, up to `limit` bytes (then `cut` is set and `onCut` runs, once), and only the
 * first and the last `keep` bytes stay in memory for the preview.
 */
export class OutputCapture {
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private file: WriteStream;
  /** Producers paused for back-pressure, resumed on drain or when the writer fails. */
  private waiting: Array<() => void> = [];
  total = 0;
  /** Whether output past `limit` was dropped. */
  cut = false;
  /** Why saving stopped early (a full disk), when it did; the preview still has head and tail. */
  saveError?: string;

  constructor(
    readonly path: string,
    private readonly keep: number,
    readonly limit = Number.POSITIVE_INFINITY,
    private readonly onCut?: () => void,
  ) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    this.file = createWriteStream(path, { mode: 0o600 });
    // A full disk must not take lathe down: the output stays in memory (head and tail) without its file.
    this.file.on('error', (error) => {
      this.saveError ??= diskErrorText(error);
      this.wake();
    });
    this.file.on('drain', () => this.wake());
  }

  /** Whether the file's writer wants the producer to pause (back-pressure). */
  write(chunk: Buffer): boolean {
    if (this.cut) return true;
    if (this.total + chunk.length > this.limit) {
      chunk = chunk.subarray(0, this.limit - this.total);
      this.cut = true;
      this.onCut?.();
    }
    const whole = chunk;
    this.total += chunk.length;
    if (this.headBytes < this.keep) {
      const take = chunk.subarray(0, this.keep - this.headBytes);
      this.head.push(take);
      this.headBytes += take.length;
      chunk = chunk.subarray(take.length);
    }
    if (chunk.length > 0) {
      this.tail.push(chunk);
      this.tailBytes += chunk.length;
      while (this.tailBytes - this.tail[0].length >= this.keep) this.tailBytes -= this.tail.shift()!.length;
    }
    // A failed writer never drains: keep reading the command's output rather than pause it forever.
    if (this.saveError !== undefined || this.file.destroyed || whole.length === 0) return true;
    return this.file.write(whole);
  }

  onDrain(fn: () => void): void {
    if (this.saveError !== undefined || this.file.destroyed) fn();
    else this.waiting.push(fn);
  }

  private wake(): void {
    for (const fn of this.waiting.splice(0)) fn();
  }

  close(): Promise<void> {
    if (this.file.destroyed) return Promise.resolve();
    // 'close' comes after the file's last write or its error, so saveError is known by then.
    return new Promise((resolve) => {
      this.file.once('close', () => resolve());
      this.file.end();
    });
  }

  /** The output as text: whole when short, else head and tail around a note. */
  preview(): { text: string; truncated: boolean } {
    const head = Buffer.concat(this.head).toString('utf8');
    if (this.total <= this.keep * 2 && this.total === this.headBytes + this.tailBytes) {
      return { text: head + Buffer.concat(this.tail).toString('utf8'), truncated: false };
    }
    const tailBuffer = Buffer.concat(this.tail);
    const tail = tailBuffer.subarray(Math.max(0, tailBuffer.length - this.keep)).toString('utf8');
    const omitted = this.total - this.headBytes - Math.min(tailBuffer.length, this.keep);
    const where =
      this.saveError === undefined
        ? `the ${this.cut ? 'saved' : 'whole'} output is in ${this.path}`
        : `the whole output could not be saved (${this.saveError})`;
    return {
      text: `${head}\n[… ${omitted.toLocaleString('en-US')} bytes omitted; ${where} …]\n${tail}`,
      truncated: true,
    };
  }
}
