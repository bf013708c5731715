import type { ModelSpec } from './model_spec.js';
import { type ModelPrice, priceFor } from './prices.js';

export interface ModelCapabilities {
  contextWindow: number;
  images: boolean;
  nativeTools: boolean;
  browserUse: boolean;
  /** The published price (`prices.json`), when known, for the cost line and total_cost_usd. */
  pricing?: ModelPrice;
}

interface FamilyRule {
  provider?: ModelSpec['provider'][];
  match: RegExp;
  caps: Partial<ModelCapabilities>;
}

/**
 * What each model family can do. The first matching rule wins; unknown models get the
 * provider's defaults. Local models (Ollama, OpenAI-compatible) are assumed to lack images
 * and browser use unless their family is known to have them.
 */
const FAMILIES: FamilyRule[] = [
  {
    match: /claude-(opus|sonnet)-4|claude-3-7|claude-sonnet/,
    caps: { contextWindow: 200_000, images: true, browserUse: true },
  },
  {
    match: /claude-haiku|claude-3-5-haiku/,
    caps: { contextWindow: 200_000, images: true, browserUse: false },
  },
  { match: /^claude/, caps: { contextWindow: 200_000, images: true, browserUse: true } },
  {
    match: /gpt-5|gpt-4\.1|o3|o4/,
    caps: { contextWindow: 400_000, images: true, browserUse: true },
  },
  {
    match: /gpt-4o/,
    caps: { contextWindow: 128_000, images: true, browserUse: true },
  },
  {
    match: /gemini-(2|3)/,
    caps: { contextWindow: 1_000_000, images: true, browserUse: true },
  },
  { match: /gemini/, caps: { contextWindow: 1_000_000, images: true, browserUse: false } },
  {
    match: /qwen.*(vl|omni)|llava|gemma3|llama3\.2-vision|mistral-small3/,
    caps: { contextWindow: 32_768, images: true, browserUse: false },
  },
  {
    match:
      /qwen|llama3\.[1-3]|mistral|mixtral|deepseek|gpt-oss|granite|command-r|hermes|functionary|firefunction/,
    caps: { contextWindow: 32_768, nativeTools: true },
  },
  {
    match: /llama2|codellama|phi-?2|gemma(?!3)|tinyllama|starcoder/,
    caps: { contextWindow: 8_192, nativeTools: false },
  },
];

const PROVIDER_DEFAULTS: Record<ModelSpec['provider'], ModelCapabilities> = {
  anthropic: { contextWindow: 200_000, images: true, nativeTools: true, browserUse: true },
  openai: { contextWindow: 128_000, images: true, nativeTools: true, browserUse: true },
  'openai-chat': { contextWindow: 128_000, images: true, nativeTools: true, browserUse: true },
  google: { contextWindow: 1_000_000, images: true, nativeTools: true, browserUse: true },
  'openai-compatible': { contextWindow: 32_768, images: false, nativeTools: true, browserUse: false },
  ollama: { contextWindow: 32_768, images: false, nativeTools: true, browserUse: false },
};

export function capabilitiesFor(
  spec: ModelSpec,
  overrides: Partial<ModelCapabilities> = {},
): ModelCapabilities {
  const id = spec.modelId.toLowerCase();
  const family = FAMILIES.find(
    (f) => (!f.provider || f.provider.includes(spec.provider)) && f.match.test(id),
  );
  return { ...PROVIDER_DEFAULTS[spec.provider], ...family?.caps, pricing: priceFor(spec), ...overrides };
}
