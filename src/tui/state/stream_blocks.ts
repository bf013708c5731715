/**
 * Splits streamed Markdown into finished blocks and the block still being written. A block ends
 * at a blank line outside a code fence. Finished blocks are rendered once and printed for good;
 * only the open block is re-rendered as tokens arrive, so the work per token stays small however
 * long the reply grows. Each character is scanned once.
 */
export class StreamBlocks {
  /** Text not yet taken: finished blocks waiting to be taken, then the open block. */
  private text = '';
  /** How far `text` has been scanned (always at a line start). */
  private scanned = 0;
  /** End of the last finished block in `text`. */
  private boundary = 0;
  private fence: string | undefined;
  private fenceLine: string | undefined;

  append(delta: string): void {
    this.text += delta;
    let lineEnd = this.text.indexOf('\n', this.scanned);
    while (lineEnd >= 0) {
      const line = this.text.slice(this.scanned, lineEnd);
      this.scanLine(line, lineEnd + 1);
      this.scanned = lineEnd + 1;
      lineEnd = this.text.indexOf('\n', this.scanned);
    }
  }

  private scanLine(line: string, end: number): void {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (this.fence) {
      if (
        marker &&
        marker[0] === this.fence[0] &&
        marker.length >= this.fence.length &&
        line.trim() === marker
      ) {
        this.fence = undefined;
        this.fenceLine = undefined;
      }
      return;
    }
    if (marker) {
      this.fence = marker;
      this.fenceLine = line;
      return;
    }
    if (line.trim() === '') this.boundary = end;
  }

  /** Finished blocks not taken yet, or undefined when none finished since the last call. */
  takeFinished(): string | undefined {
    if (this.boundary === 0) return undefined;
    const finished = this.text.slice(0, this.boundary);
    this.text = this.text.slice(this.boundary);
    this.scanned -= this.boundary;
    this.boundary = 0;
    return finished.trim() === '' ? undefined : finished;
  }

  /** The block still being written. */
  get open(): string {
    return this.text.slice(this.boundary);
  }

  /** The line that opened the code block being written, if one is open (to render a tail of it). */
  get openFence(): string | undefined {
    return this.fenceLine;
  }

  /** Ends the stream: everything left, finished or not. */
  takeAll(): string {
    const rest = this.text;
    this.text = '';
    this.scanned = 0;
    this.boundary = 0;
    this.fence = undefined;
    this.fenceLine = undefined;
    return rest;
  }
}
