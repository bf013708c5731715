import { describe, expect, it } from 'vitest';
import { capabilitiesFor } from '../../src/provider/capabilities.js';
import type { ModelSpec } from '../../src/provider/model_spec.js';
import { PRICES_AS_OF, priceFor, requestCost, type TokenUsage } from '../../src/provider/prices.js';
import table from '../../src/provider/prices.json' with { type: 'json' };

/**
 * One request of a known shape: 100,000 input tokens of which 60,000 read from the cache and
 * 20,000 written to it (so 20,000 at the full input price), and 10,000 output tokens.
 */
const USAGE: TokenUsage = {
  inputTokens: 100_000,
  cachedInputTokens: 60_000,
  cacheWriteTokens: 20_000,
  outputTokens: 10_000,
};

/** The cost of USAGE from per-million rates: full-price input, cache write, cache read, output. */
const expected = (input: number, cacheWrite: number, cacheRead: number, output: number) =>
  (20_000 * input + 20_000 * cacheWrite + 60_000 * cacheRead + 10_000 * output) / 1_000_000;

function cost(provider: ModelSpec['provider'], modelId: string, usage = USAGE): number | undefined {
  const price = priceFor({ provider, modelId });
  return price && requestCost(usage, price);
}

describe('published prices per family', () => {
  it.each([
    ['claude-opus-4-1-20250805', expected(15, 18.75, 1.5, 75)],
    ['claude-opus-4-20250514', expected(15, 18.75, 1.5, 75)],
    ['claude-opus-4-5-20251101', expected(5, 6.25, 0.5, 25)],
    ['claude-sonnet-4-5-20250929', expected(3, 3.75, 0.3, 15)],
    ['claude-sonnet-4-20250514', expected(3, 3.75, 0.3, 15)],
    ['claude-3-7-sonnet-latest', expected(3, 3.75, 0.3, 15)],
    ['claude-haiku-4-5', expected(1, 1.25, 0.1, 5)],
    ['claude-3-5-haiku-latest', expected(0.8, 1, 0.08, 4)],
  ])('anthropic/%s', (modelId, dollars) => {
    expect(cost('anthropic', modelId)).toBeCloseTo(dollars, 10);
  });

  // OpenAI charges nothing extra to write its cache: written tokens cost the input price.
  it.each([
    ['gpt-5', expected(1.25, 1.25, 0.125, 10)],
    ['gpt-5-2025-08-07', expected(1.25, 1.25, 0.125, 10)],
    ['gpt-5-mini', expected(0.25, 0.25, 0.025, 2)],
    ['gpt-5-nano', expected(0.05, 0.05, 0.005, 0.4)],
    ['gpt-4o', expected(2.5, 2.5, 1.25, 10)],
    ['gpt-4o-mini', expected(0.15, 0.15, 0.075, 0.6)],
    ['gpt-4.1', expected(2, 2, 0.5, 8)],
    ['gpt-4.1-mini', expected(0.4, 0.4, 0.1, 1.6)],
    ['gpt-4.1-nano', expected(0.1, 0.1, 0.025, 0.4)],
  ])('openai/%s', (modelId, dollars) => {
    expect(cost('openai', modelId)).toBeCloseTo(dollars, 10);
    expect(cost('openai-chat', modelId)).toBeCloseTo(dollars, 10);
  });

  it.each([
    ['gemini-2.5-pro', expected(1.25, 1.25, 0.125, 10)],
    ['gemini-2.5-flash', expected(0.3, 0.3, 0.03, 2.5)],
    ['gemini-2.5-flash-preview-09-2025', expected(0.3, 0.3, 0.03, 2.5)],
    ['gemini-2.5-flash-lite', expected(0.1, 0.1, 0.01, 0.4)],
  ])('google/%s', (modelId, dollars) => {
    expect(cost('google', modelId)).toBeCloseTo(dollars, 10);
  });

  it('prices a Gemini 2.5 Pro request over 200k prompt tokens at the long-prompt rates', () => {
    const long = { ...USAGE, inputTokens: 300_000 };
    // 220,000 at full price, 20,000 written, 60,000 read, 10,000 out, at $2.50/$2.50/$0.25/$15.
    const dollars = (220_000 * 2.5 + 20_000 * 2.5 + 60_000 * 0.25 + 10_000 * 15) / 1_000_000;
    expect(cost('google', 'gemini-2.5-pro', long)).toBeCloseTo(dollars, 10);
  });
});

describe('matching a model id to its row', () => {
  it('takes the longest row, so Opus is not priced as Sonnet nor Flash as Pro nor mini as gpt-5', () => {
    expect(priceFor({ provider: 'anthropic', modelId: 'claude-opus-4-1' })?.model).toBe('claude-opus-4');
    expect(priceFor({ provider: 'google', modelId: 'gemini-2.5-flash-lite' })?.model).toBe(
      'gemini-2.5-flash-lite',
    );
    expect(priceFor({ provider: 'openai', modelId: 'gpt-5-mini-2025-08-07' })?.model).toBe('gpt-5-mini');
  });

  it('matches only at a name boundary: gpt-5 does not price an unknown gpt-5.3', () => {
    expect(priceFor({ provider: 'openai', modelId: 'gpt-5.3' })).toBeUndefined();
    expect(priceFor({ provider: 'anthropic', modelId: 'claude-sonnet-40' })).toBeUndefined();
  });

  it('knows no price for local and compatible endpoints, whatever the model is called', () => {
    expect(priceFor({ provider: 'ollama', modelId: 'gpt-5' })).toBeUndefined();
    expect(priceFor({ provider: 'openai-compatible', modelId: 'claude-sonnet-4-5' })).toBeUndefined();
    expect(capabilitiesFor({ provider: 'ollama', modelId: 'qwen3' }).pricing).toBeUndefined();
  });

  it('gives the capabilities the table row', () => {
    expect(capabilitiesFor({ provider: 'anthropic', modelId: 'claude-opus-4-1' }).pricing).toMatchObject({
      input: 15,
      output: 75,
    });
  });
});

describe('the price table file', () => {
  it('is dated, and every row has its four rates', () => {
    expect(PRICES_AS_OF).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const rows of Object.values(table.providers)) {
      for (const row of rows as Array<Record<string, unknown>>) {
        for (const rate of ['input', 'output', 'cacheWrite', 'cacheRead'])
          expect(typeof row[rate], `${row.model} ${rate}`).toBe('number');
      }
    }
  });

  it('has one row per model id in each provider', () => {
    for (const rows of Object.values(table.providers)) {
      const ids = rows.map((r) => r.model);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it('never prices a cache read above input, nor a cache write below it (a swapped column)', () => {
    for (const rows of Object.values(table.providers)) {
      for (const row of rows) {
        expect(row.cacheRead, row.model).toBeLessThanOrEqual(row.input);
        expect(row.cacheWrite, row.model).toBeGreaterThanOrEqual(row.input);
      }
    }
  });
});
