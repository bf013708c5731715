import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Keeps a command's output bounded in memory whatever it prints: everything goes to a file as
 * it arrives, and only the first and the last `keep` bytes stay in memory for the preview.
 */
export class OutputCapture {
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private file: WriteStream;
  total = 0;

  constructor(
    readonly path: string,
    private readonly keep: number,
  ) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    this.file = createWriteStream(path, { mode: 0o600 });
  }

  /** Whether the file's writer wants the producer to pause (back-pressure). */
  write(chunk: Buffer): boolean {
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
    return this.file.write(whole);
  }

  onDrain(fn: () => void): void {
    this.file.once('drain', fn);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.file.end(resolve));
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
      text: `${head}\n[… ${omitted.toLocaleString('en-US')} bytes omitted; the whole output is in ${this.path} …]\n${tail}`,
      truncated: true,
    };
  }
}
