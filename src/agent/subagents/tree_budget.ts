/**
 * What every child of a session spends together (settings `agents.tree`): tokens, and the
 * children's running time added up, so three children running ten minutes count thirty.
 * Shared from the user's agent down to the deepest child.
 */
export class TreeBudget {
  private tokens = 0;
  private endedMs = 0;
  /** Running children: id → when it started. */
  private readonly running = new Map<string, number>();

  constructor(
    private readonly limits: { maxTokens: number; maxMs: number },
    private readonly now: () => number = Date.now,
  ) {}

  addTokens(count: number): void {
    this.tokens += count;
  }

  started(id: string): void {
    this.running.set(id, this.now());
  }

  ended(id: string): void {
    const since = this.running.get(id);
    if (since === undefined) return;
    this.running.delete(id);
    this.endedMs += this.now() - since;
  }

  /** The children's running time so far, those still running included. */
  spentMs(): number {
    const now = this.now();
    let ms = this.endedMs;
    for (const since of this.running.values()) ms += now - since;
    return ms;
  }

  /** Why no child may spend more, or undefined while the tree is within its budget. */
  exhausted(): string | undefined {
    if (this.tokens >= this.limits.maxTokens)
      return `all children together reached their token budget (${this.limits.maxTokens.toLocaleString('en-US')} tokens, agents.tree.maxTokens)`;
    if (this.spentMs() >= this.limits.maxMs)
      return `all children together reached their time budget (${Math.round(this.limits.maxMs / 1000)} s of running time, agents.tree.maxSeconds)`;
    return undefined;
  }
}
