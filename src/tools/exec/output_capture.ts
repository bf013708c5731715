import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';

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
  /** Bytes saved. */
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
    this.file.on('error', (error) => {
      this.saveError ??= error.message;
    });
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
    const saving = this.saveError === undefined;
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
    return !saving || whole.length === 0 || this.file.write(whole);
  }

  onDrain(fn: () => void): void {
    this.file.once('drain', fn);
  }

  close(): Promise<void> {
    if (this.file.destroyed) return Promise.resolve();
    return new Promise((resolve) => {
      this.file.once('close', resolve);
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
    return {
      text: `${head}\n[… ${omitted.toLocaleString('en-US')} bytes omitted; the ${this.cut ? 'saved' : 'whole'} output is in ${this.path} …]\n${tail}`,
      truncated: true,
    };
  }
}
