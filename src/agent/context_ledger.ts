import { messageTokens, messageTokensAtMost, tokenCounter } from './context_tokens.js';
import type { ConversationMessage } from './model_stream.js';
import type { NextRequest } from './run_limits.js';

/**
 * How full the context is: the provider's count of the last request (its input and its reply),
 * plus lathe's count of the messages added since (tool results, notes, the next prompt). The
 * compaction check reads `now`; the context report calibrates against `lastRequest`.
 */
export class ContextLedger {
  /** Input and output tokens of the last request; 0 until one is made (or after a compaction). */
  tokens = 0;
  /** The last request: how many messages it sent, and the provider's count of its input. */
  lastRequest?: { messages: number; providerTokens: number };
  private sentMessages = 0;

  /** A request is about to go with `messages` messages. */
  sending(messages: number): void {
    this.sentMessages = messages;
  }

  /** The provider's usage of that request. */
  recorded(usage: { inputTokens: number; outputTokens: number }): void {
    this.tokens = usage.inputTokens + usage.outputTokens;
    this.lastRequest = { messages: this.sentMessages, providerTokens: usage.inputTokens };
  }

  /** The conversation was replaced: nothing is known of it until its next request. */
  reset(): void {
    this.tokens = 0;
    this.lastRequest = undefined;
  }

  /** Messages were cut: `freed` tokens fewer, and `lengthChange` messages more (negative: fewer). */
  snipped(freed: number, lengthChange: number): void {
    if (this.tokens > 0) this.tokens = Math.max(1, this.tokens - freed);
    this.sentMessages = Math.max(0, this.sentMessages + lengthChange);
    // The last request no longer matches the conversation: its count cannot calibrate.
    this.lastRequest = undefined;
  }

  /**
   * What the next request will carry: the last request's tokens and lathe's count of the
   * messages added since; undefined before the first request (or after a compaction).
   */
  async nextRequest(messages: readonly ConversationMessage[]): Promise<NextRequest | undefined> {
    if (this.tokens === 0) return undefined;
    const count = await tokenCounter();
    const added = messages.slice(this.sentMessages + 1);
    return {
      carried: this.tokens,
      added: added.reduce((sum, message) => sum + messageTokens(message, count), 0),
    };
  }

  /**
   * Whether the next request will carry `threshold` tokens or more: the last request's, plus the
   * messages after its reply (its output tokens count the reply). Nothing is known before the
   * first request. The tokenizer runs only when an upper bound of the added messages reaches it.
   */
  async reaches(messages: readonly ConversationMessage[], threshold: number): Promise<boolean> {
    if (this.tokens === 0) return false;
    const added = messages.slice(this.sentMessages + 1);
    const atMost = added.reduce((sum, message) => sum + messageTokensAtMost(message), 0);
    if (this.tokens + atMost < threshold) return false;
    const count = await tokenCounter();
    return this.tokens + added.reduce((sum, message) => sum + messageTokens(message, count), 0) >= threshold;
  }
}
