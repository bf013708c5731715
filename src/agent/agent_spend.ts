import { type ModelPrice, requestCost, type TokenUsage } from '../provider/prices.js';
import type { ContextLedger } from './context_ledger.js';
import { type AgentEvent, type AgentOutcome, emptyUsage, type Usage } from './events.js';
import type { ConversationMessage } from './model_stream.js';
import { limitText, type RunLimit, RunLimits, type SpendBudget } from './run_limits.js';

/**
 * What an agent has spent (tokens, dollars) and the limits of its run: each request's usage is
 * added here, the limits are checked against the totals, and every outcome carries them.
 */
export class AgentSpend {
  readonly usage: Usage = emptyUsage();
  /** Dollars spent, request by request; undefined when the model's prices are not known. */
  private costUsd?: number;
  private readonly limits: RunLimits;

  constructor(
    run: { maxTurns?: number; budget?: SpendBudget },
    private readonly price: ModelPrice | undefined,
    /** How full the context is: a request's usage is what the conversation now holds. */
    private readonly ledger: ContextLedger,
    private readonly emit: (event: AgentEvent) => void,
  ) {
    this.limits = new RunLimits(run.maxTurns, run.budget, price);
  }

  /** Whether calls wait for their response's usage: only a spend budget needs it. */
  get holdsCalls(): boolean {
    return this.limits.holdsCalls;
  }

  outcome(kind: AgentOutcome['kind'], text: string, turns: number, limit?: RunLimit): AgentOutcome {
    return {
      kind,
      text,
      usage: { ...this.usage },
      costUsd: this.costUsd,
      turns,
      ...(limit ? { limit } : {}),
    };
  }

  /** The outcome of a run a limit ended. */
  limitOutcome(limit: RunLimit, turns: number, text = limitText(limit)): AgentOutcome {
    const kind = limit.name === 'turns' ? 'max_turns' : limit.name === 'cost' ? 'max_cost' : 'max_tokens';
    return this.outcome(kind, text, turns, limit);
  }

  /** Before request `turn`: the limit that forbids it, as the run's outcome. */
  async forbidden(turn: number, messages: ConversationMessage[]): Promise<AgentOutcome | undefined> {
    const turns = this.limits.turnsPassed(turn);
    if (turns) return this.limitOutcome(turns, turn - 1);
    if (!this.limits.holdsCalls) return undefined;
    const next = await this.ledger.nextRequest(messages);
    const refused = this.limits.unaffordable(this.usage, this.costUsd, next);
    if (!refused) return undefined;
    const text = limitText(refused.limit, { request: turn, estimate: refused.estimate });
    return this.limitOutcome(refused.limit, turn - 1, text);
  }

  /** A response's usage arrived: adds it, and says the spend limit it reached, if any. */
  responded(usage: TokenUsage): RunLimit | undefined {
    this.record(usage);
    return this.limits.reached(usage, this.usage, this.costUsd);
  }

  /** Adds a request's usage and cost; `context`: its tokens are what the conversation now holds. */
  record(usage: TokenUsage | undefined, context = true): void {
    if (!usage) return;
    this.usage.inputTokens += usage.inputTokens;
    this.usage.outputTokens += usage.outputTokens;
    this.usage.cachedInputTokens += usage.cachedInputTokens;
    this.usage.cacheWriteTokens += usage.cacheWriteTokens;
    if (this.price) this.costUsd = (this.costUsd ?? 0) + requestCost(usage, this.price);
    if (context) this.ledger.recorded(usage);
    this.emit({
      type: 'usage',
      request: { ...usage },
      usage: { ...this.usage },
      contextTokens: this.ledger.tokens,
      costUsd: this.costUsd,
    });
  }
}
