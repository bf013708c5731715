/**
 * The messages of a run on their way to the one reader that iterates them: pushed as they
 * happen, kept in order until read. A reader that stops early (`break`) calls `onStop`.
 */
export class MessageQueue<T> implements AsyncIterableIterator<T> {
  private items: T[] = [];
  private head = 0;
  private waiting?: { resolve(result: IteratorResult<T>): void; reject(error: unknown): void };
  private ended = false;
  private failure?: { error: unknown };

  constructor(private readonly onStop: () => void) {}

  push(item: T): void {
    if (this.ended) return;
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = undefined;
      waiting.resolve({ value: item, done: false });
      return;
    }
    this.items.push(item);
  }

  /** No more messages: the reader's loop ends once it has read those waiting. */
  end(): void {
    this.ended = true;
    this.waiting?.resolve({ value: undefined, done: true });
    this.waiting = undefined;
  }

  /** The run failed: the reader gets the error after the messages waiting. */
  fail(error: unknown): void {
    this.failure = { error };
    this.ended = true;
    this.waiting?.reject(error);
    this.waiting = undefined;
  }

  next(): Promise<IteratorResult<T>> {
    if (this.head < this.items.length) {
      const value = this.items[this.head++];
      // Read items are dropped now and then, not one by one (a shift per message costs more).
      if (this.head > 1024 && this.head * 2 > this.items.length) {
        this.items = this.items.slice(this.head);
        this.head = 0;
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.failure) return Promise.reject(this.failure.error);
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }

  async return(): Promise<IteratorResult<T>> {
    if (!this.ended) this.onStop();
    this.items = [];
    this.head = 0;
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }
}
