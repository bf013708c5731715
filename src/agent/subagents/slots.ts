/**
 * At most `size` holders at once (the children of one agent running together); the others wait
 * in order. One per agent, so a child waiting for its own children never holds up their places.
 */
export class Slots {
  private used = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly size: number) {}

  /** Resolves with the place's release once one is free; false when `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<(() => void) | false> {
    if (signal?.aborted) return Promise.resolve(false);
    if (this.used < this.size) {
      this.used++;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve) => {
      const take = () => {
        signal?.removeEventListener('abort', abandon);
        this.used++;
        resolve(this.releaser());
      };
      const abandon = () => {
        const at = this.waiting.indexOf(take);
        if (at >= 0) this.waiting.splice(at, 1);
        resolve(false);
      };
      this.waiting.push(take);
      signal?.addEventListener('abort', abandon, { once: true });
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.used--;
      this.waiting.shift()?.();
    };
  }
}
