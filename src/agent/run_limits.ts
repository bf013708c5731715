import { type ModelPrice, requestCost, type TokenUsage } from '../provider/prices.js';

/** What a run may spend, over its own requests and what `spentElsewhere` adds. */
export interface SpendBudget {
  /** Input + output tokens. */
  maxTokens?: number;
  /** Dollars at the model's known prices. */
  maxCostUsd?: number;
  /** Spent beside this agent's own requests (its children, an earlier agent of the conversation). */
  spentElsewhere?: () => { tokens: number; costUsd: number };
}

/** The limit that ended a run: which, how much was used, and the most allowed. */
export interface RunLimit {
  name: 'turns' | 'tokens' | 'cost';
  used: number;
  max: number;
}

/** The next request as far as it is known: the last request's tokens and those added since. */
export interface NextRequest {
  carried: number;
  added: number;
}

const FLAGS: Record<RunLimit['name'], string> = {
  turns: '--max-turns',
  tokens: '--max-tokens',
  cost: '--max-cost',
};

const amount = (name: RunLimit['name'], value: number) =>
  name === 'cost' ? `$${value.toFixed(4)}` : value.toLocaleString('en-US');

/** How a limit is told: in the outcome's text, and to the model for the calls it stops. */
export function limitText(limit: RunLimit, before?: { request: number; estimate: number }): string {
  const { name, used, max } = limit;
  if (name === 'turns') return `Stopped after ${max} model requests: the limit of ${FLAGS.turns} ${max}.`;
  const what = name === 'cost' ? 'cost budget' : 'token budget';
  const of = `${amount(name, used)} of ${amount(name, max)}; ${FLAGS[name]}`;
  if (before)
    return `Stopped before model request ${before.request}: it would pass the ${what} (${of}, and about ${amount(name, before.estimate)} to send).`;
  return `Stopped: the ${what} is spent (${of}).`;
}

/**
 * The limits of one agent's run: model requests (`maxTurns`, none when not given: the loop guard
 * stops a model that repeats itself) and spend. Spend is checked when a response's usage arrives,
 * before its tool calls run, and before each request, against what that request's input will cost.
 */
export class RunLimits {
  private last?: TokenUsage;

  constructor(
    private readonly maxTurns: number | undefined,
    private readonly budget: SpendBudget | undefined,
    private readonly price: ModelPrice | undefined,
  ) {}

  /** Whether calls wait for their response's usage: only a spend budget needs it. */
  get holdsCalls(): boolean {
    return this.budget?.maxTokens !== undefined || this.budget?.maxCostUsd !== undefined;
  }

  /** The turns limit, when request `turn` would pass it. */
  turnsPassed(turn: number): RunLimit | undefined {
    if (this.maxTurns === undefined || turn <= this.maxTurns) return undefined;
    return { name: 'turns', used: this.maxTurns, max: this.maxTurns };
  }

  /** After a response: the spend limit it reached, if any (`usage`, `costUsd`: the agent's totals). */
  reached(request: TokenUsage, usage: TokenUsage, costUsd: number | undefined): RunLimit | undefined {
    this.last = request;
    return this.passed(this.spent(usage, costUsd), { tokens: 0, costUsd: 0 });
  }

  /**
   * Before a request: the limit it cannot be paid from, and the estimate of its input. Its
   * output is not known, so only a request whose input alone reaches a budget is refused.
   */
  unaffordable(
    usage: TokenUsage,
    costUsd: number | undefined,
    next: NextRequest | undefined,
  ): { limit: RunLimit; estimate: number } | undefined {
    if (!this.holdsCalls) return undefined;
    const spent = this.spent(usage, costUsd);
    const estimate = next
      ? { tokens: next.carried + next.added, costUsd: this.inputCost(next) }
      : { tokens: 0, costUsd: 0 };
    const limit = this.passed(spent, estimate);
    if (!limit) return undefined;
    return { limit, estimate: limit.name === 'cost' ? estimate.costUsd : estimate.tokens };
  }

  /** What the run has spent: its own requests and what is spent elsewhere. */
  private spent(usage: TokenUsage, costUsd: number | undefined): { tokens: number; costUsd: number } {
    const elsewhere = this.budget?.spentElsewhere?.() ?? { tokens: 0, costUsd: 0 };
    return {
      tokens: usage.inputTokens + usage.outputTokens + elsewhere.tokens,
      costUsd: (costUsd ?? 0) + elsewhere.costUsd,
    };
  }

  /** The budget that `spent` and `adding` together reach (cost first), with what was spent. */
  private passed(
    spent: { tokens: number; costUsd: number },
    adding: { tokens: number; costUsd: number },
  ): RunLimit | undefined {
    const { maxTokens, maxCostUsd } = this.budget ?? {};
    if (maxCostUsd !== undefined && spent.costUsd + adding.costUsd >= maxCostUsd)
      return { name: 'cost', used: spent.costUsd, max: maxCostUsd };
    if (maxTokens !== undefined && spent.tokens + adding.tokens >= maxTokens)
      return { name: 'tokens', used: spent.tokens, max: maxTokens };
    return undefined;
  }

  /**
   * The carried context at the last request's own input rate (cache reads and writes included),
   * the added tokens at the full input price.
   */
  private inputCost(next: NextRequest): number {
    if (!this.price) return 0;
    const full = requestCost(
      { inputTokens: next.added, outputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0 },
      this.price,
    );
    const last = this.last;
    if (!last || last.inputTokens === 0) return full;
    const lastInput = requestCost({ ...last, outputTokens: 0 }, this.price);
    return full + (next.carried * lastInput) / last.inputTokens;
  }
}
