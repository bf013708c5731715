import type { ModelSpec } from './model_spec.js';
import table from './prices.json' with { type: 'json' };

/** Dollars per million tokens of each kind. */
export interface TokenRates {
  input: number;
  output: number;
  /** Input written to the provider's prompt cache (Anthropic charges 1.25 × input). */
  cacheWrite: number;
  /** Input read from the prompt cache. */
  cacheRead: number;
}

export interface ModelPrice extends TokenRates {
  /** The model id this row prices, and its variants and dated snapshots. */
  model: string;
  /** Other rates for a request whose prompt is longer than `aboveTokens` (Gemini Pro past 200k). */
  longPrompt?: TokenRates & { aboveTokens: number };
  /** Why a figure may be uncertain. */
  note?: string;
}

/** The tokens of one or more requests, as the providers report them. */
export interface TokenUsage {
  /** Every input token: read from the cache, written to it, and neither. */
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  cacheWriteTokens: number;
}

/** The day the price table was last checked. */
export const PRICES_AS_OF: string = table.asOf;

const TABLES: Record<string, ModelPrice[]> = table.providers;

/** Which table a provider's models are priced from; local and compatible endpoints have none. */
const TABLE_OF: Partial<Record<ModelSpec['provider'], string>> = {
  anthropic: 'anthropic',
  openai: 'openai',
  'openai-chat': 'openai',
  google: 'google',
};

/** The model ids the price table knows for a provider (none for local and compatible ones). */
export function pricedModels(provider: ModelSpec['provider']): string[] {
  return (TABLES[TABLE_OF[provider] ?? ''] ?? []).map((row) => row.model);
}

/**
 * The published price of a model, or undefined when it is not known. A row matches the id
 * itself or the id followed by '-' (`claude-sonnet-4` prices `claude-sonnet-4-5-20250929`, but
 * `gpt-5` does not price `gpt-5.4`); the longest matching row wins.
 */
export function priceFor(spec: ModelSpec): ModelPrice | undefined {
  const rows = TABLES[TABLE_OF[spec.provider] ?? ''];
  if (!rows) return undefined;
  const id = spec.modelId.toLowerCase().replace(/^models\//, '');
  let best: ModelPrice | undefined;
  for (const row of rows) {
    const matches = id === row.model || id.startsWith(`${row.model}-`);
    if (matches && row.model.length > (best?.model.length ?? 0)) best = row;
  }
  return best;
}

/**
 * What one request cost in dollars: input neither read from nor written to the cache at the
 * input price, cache writes and reads at theirs, output at the output price. Priced per request
 * because some rates depend on the length of that request's prompt.
 */
export function requestCost(usage: TokenUsage, price: ModelPrice): number {
  const rates =
    price.longPrompt && usage.inputTokens > price.longPrompt.aboveTokens ? price.longPrompt : price;
  const fullPrice = Math.max(0, usage.inputTokens - usage.cachedInputTokens - usage.cacheWriteTokens);
  return (
    (fullPrice * rates.input +
      usage.cacheWriteTokens * rates.cacheWrite +
      usage.cachedInputTokens * rates.cacheRead +
      usage.outputTokens * rates.output) /
    1_000_000
  );
}
