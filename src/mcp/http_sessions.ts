/** What a session is closed with: its transport (closing it ends the session's server too). */
export interface ClosableSession {
  close(): Promise<void>;
}

export interface SessionLimits {
  /** A session with no request for this long is closed. */
  idleTimeoutMs: number;
  /** At most this many sessions at once. */
  maxSessions: number;
}

export type SessionEnd = 'idle' | 'evicted';

interface Entry<T> {
  session: T;
  /** Requests (POSTs) of the session still being answered. */
  busy: number;
  lastUsed: number;
  timer?: NodeJS.Timeout;
}

/**
 * The MCP sessions of `lathe mcp serve --http`. A session that has had no request for the idle
 * timeout is closed; at the cap, a new session closes the least recently used idle one (a
 * session answering a request is never closed). Long-lived event streams (GET) do not count as
 * requests: a client that only listens is idle.
 */
export class HttpSessions<T extends ClosableSession> {
  private readonly entries = new Map<string, Entry<T>>();
  private order = 0;

  constructor(
    private readonly limits: SessionLimits,
    /** A session was closed by these rules (not by its client). */
    private readonly onEnd?: (id: string, why: SessionEnd) => void,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(id: string): T | undefined {
    return this.entries.get(id)?.session;
  }

  /** A new session (its first request is `begin`-ed by the caller). */
  add(id: string, session: T): void {
    const entry: Entry<T> = { session, busy: 0, lastUsed: ++this.order };
    this.entries.set(id, entry);
    this.armIdleTimer(id, entry);
  }

  /** A request of the session starts: it is not idle until `end`. */
  begin(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    entry.busy++;
    entry.lastUsed = ++this.order;
    clearTimeout(entry.timer);
    entry.timer = undefined;
  }

  /** A request of the session was answered (or its client went away). */
  end(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    entry.busy = Math.max(0, entry.busy - 1);
    entry.lastUsed = ++this.order;
    if (entry.busy === 0) this.armIdleTimer(id, entry);
  }

  private armIdleTimer(id: string, entry: Entry<T>): void {
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => void this.close(id, 'idle'), this.limits.idleTimeoutMs);
    // The listening server keeps the process alive, not a session's timer.
    entry.timer.unref();
  }

  /** The session ended (its client closed it, or it was closed here). */
  remove(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.entries.delete(id);
  }

  /**
   * Makes room for one more session: at the cap, closes the least recently used idle session.
   * False when every session is busy (the new one must be refused).
   */
  async makeRoom(): Promise<boolean> {
    if (this.entries.size < this.limits.maxSessions) return true;
    let oldest: [string, Entry<T>] | undefined;
    for (const pair of this.entries) {
      if (pair[1].busy === 0 && (!oldest || pair[1].lastUsed < oldest[1].lastUsed)) oldest = pair;
    }
    if (!oldest) return false;
    await this.close(oldest[0], 'evicted');
    return true;
  }

  private async close(id: string, why: SessionEnd): Promise<void> {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.remove(id);
    await entry.session.close().catch(() => {});
    this.onEnd?.(id, why);
  }

  async closeAll(): Promise<void> {
    const all = [...this.entries.values()];
    for (const entry of all) clearTimeout(entry.timer);
    this.entries.clear();
    await Promise.all(all.map((e) => e.session.close().catch(() => {})));
  }
}
