import type { LanguageModelV3, SharedV3ProviderOptions } from '@ai-sdk/provider';
import { DEFAULT_MODEL_TIMEOUTS, type ModelTimeouts } from '../config/timeouts.js';
import type { Effort } from '../config/types.js';
import { keysStayOnOrigin } from './key_redirects.js';
import { ModelConfigError, type ModelSpec, type ProviderName } from './model_spec.js';
import { fetchWithTimeouts } from './timed_fetch.js';

/** Where each provider's key is looked for, in order (the first is the one to name). */
export const API_KEY_VARIABLES: Record<ProviderName, readonly string[]> = {
  anthropic: ['ANTHROPIC_API_KEY'],
  openai: ['OPENAI_API_KEY'],
  'openai-chat': ['OPENAI_API_KEY'],
  google: ['GEMINI_API_KEY', 'GOOGLE_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY'],
  'openai-compatible': ['OPENAI_COMPATIBLE_API_KEY'],
  ollama: [],
};

/** Where each provider's endpoint may be set instead of its default. */
export const BASE_URL_VARIABLES: Record<ProviderName, string> = {
  anthropic: 'ANTHROPIC_BASE_URL',
  openai: 'OPENAI_BASE_URL',
  'openai-chat': 'OPENAI_BASE_URL',
  google: 'GOOGLE_GEMINI_BASE_URL',
  'openai-compatible': 'OPENAI_COMPATIBLE_BASE_URL',
  ollama: 'OPENAI_COMPATIBLE_BASE_URL',
};

/** The first variable that holds a key for this provider. */
export function apiKeyVariable(provider: ProviderName, env: NodeJS.ProcessEnv): string | undefined {
  return API_KEY_VARIABLES[provider].find((name) => (env[name] ?? '') !== '');
}

/**
 * What a provider needs that the environment (or a key and endpoint given as `--api-key` and
 * `--base-url`) lacks before its models can be used here, in words: `OPENAI_API_KEY is not set`;
 * undefined when nothing is missing.
 */
export function missingSetup(
  provider: ProviderName,
  env: NodeJS.ProcessEnv,
  given: { apiKey?: string; baseUrl?: string } = {},
): string | undefined {
  if (provider === 'openai-compatible' && !given.baseUrl && !env[BASE_URL_VARIABLES[provider]])
    return `${BASE_URL_VARIABLES[provider]} is not set`;
  const needs = API_KEY_VARIABLES[provider];
  if (given.apiKey || provider === 'openai-compatible' || needs.length === 0 || apiKeyVariable(provider, env))
    return undefined;
  return `${needs[0]} is not set`;
}

function keyFromEnv(provider: ProviderName, env: NodeJS.ProcessEnv): string | undefined {
  const variable = apiKeyVariable(provider, env);
  return variable ? env[variable] : undefined;
}

export interface ProviderOptions {
  baseUrl?: string;
  apiKey?: string;
  env?: NodeJS.ProcessEnv;
  /** First-byte and idle timeouts of every request (settings `modelTimeouts`). */
  timeouts?: ModelTimeouts;
}

function required(value: string | undefined, variable: string, spec: ModelSpec): string {
  if (value) return value;
  throw new ModelConfigError(
    `${variable} is not set: export it, or pass --api-key, to use ${spec.provider}/${spec.modelId}.`,
  );
}

function checkUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http');
  } catch {
    throw new ModelConfigError(`the base URL "${url}" is not an http(s) URL.`);
  }
  return url.replace(/\/+$/, '');
}

/**
 * The fetch every model request goes out on: Node's own (undici, loaded at the first request; a
 * proxy, when set, is its global dispatcher), with the timeouts a streaming answer needs and
 * provider keys kept on their origin across redirects.
 */
export function modelFetch(timeouts: ModelTimeouts): typeof fetch {
  return fetchWithTimeouts(timeouts, keysStayOnOrigin(globalThis.fetch));
}

/**
 * The AI SDK model for a spec, with keys and endpoints from the options or the usual
 * environment variables. Provider packages are loaded only when used.
 */
export async function createModel(spec: ModelSpec, options: ProviderOptions = {}): Promise<LanguageModelV3> {
  const env = options.env ?? process.env;
  const baseURL = checkUrl(options.baseUrl);
  const fetch = modelFetch(options.timeouts ?? DEFAULT_MODEL_TIMEOUTS);
  switch (spec.provider) {
    case 'anthropic': {
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      const apiKey = required(options.apiKey || keyFromEnv('anthropic', env), 'ANTHROPIC_API_KEY', spec);
      return createAnthropic({ apiKey, baseURL: baseURL ?? checkUrl(anthropicBase(env)), fetch })(
        spec.modelId,
      );
    }
    case 'openai':
    case 'openai-chat': {
      const { createOpenAI } = await import('@ai-sdk/openai');
      const apiKey = required(options.apiKey || keyFromEnv('openai', env), 'OPENAI_API_KEY', spec);
      const provider = createOpenAI({ apiKey, baseURL: baseURL ?? checkUrl(env.OPENAI_BASE_URL), fetch });
      return spec.provider === 'openai' ? provider.responses(spec.modelId) : provider.chat(spec.modelId);
    }
    case 'google': {
      const { createGoogleGenerativeAI } = await import('@ai-sdk/google');
      const apiKey = required(
        options.apiKey || keyFromEnv('google', env),
        'GEMINI_API_KEY (or GOOGLE_API_KEY)',
        spec,
      );
      const base = baseURL ?? checkUrl(env.GOOGLE_GEMINI_BASE_URL);
      return createGoogleGenerativeAI({ apiKey, baseURL: base ? geminiBase(base) : undefined, fetch })(
        spec.modelId,
      );
    }
    case 'openai-compatible':
    case 'ollama': {
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      const fallback = spec.provider === 'ollama' ? 'http://localhost:11434/v1' : undefined;
      const url = baseURL ?? checkUrl(env.OPENAI_COMPATIBLE_BASE_URL) ?? fallback;
      if (!url) {
        throw new ModelConfigError(
          'openai-compatible needs --base-url (e.g. http://localhost:1234/v1 for LM Studio).',
        );
      }
      const apiKey = options.apiKey || keyFromEnv('openai-compatible', env);
      return createOpenAICompatible({ name: spec.provider, baseURL: url, apiKey, includeUsage: true, fetch })(
        spec.modelId,
      );
    }
  }
}

/** Anthropic's thinking budget and Gemini 2.x's, in tokens, for each effort level. */
const THINKING_BUDGET: Record<Effort, { anthropic: number; gemini: number }> = {
  low: { anthropic: 4_000, gemini: 2_048 },
  medium: { anthropic: 10_000, gemini: 8_192 },
  high: { anthropic: 32_000, gemini: 24_576 },
};

/** How each provider is told to reason harder or less; nothing when no effort is set. */
function effortOptions(spec: ModelSpec, effort: Effort): SharedV3ProviderOptions {
  switch (spec.provider) {
    case 'anthropic':
      return {
        anthropic: { thinking: { type: 'enabled', budgetTokens: THINKING_BUDGET[effort].anthropic } },
      };
    case 'openai':
    case 'openai-chat':
      return { openai: { reasoningEffort: effort } };
    case 'google':
      // Gemini 3 takes a level; 2.x a budget.
      return {
        google: {
          thinkingConfig: /gemini-[3-9]/.test(spec.modelId)
            ? { thinkingLevel: effort }
            : { thinkingBudget: THINKING_BUDGET[effort].gemini },
        },
      };
    case 'openai-compatible':
    case 'ollama':
      return { [spec.provider]: { reasoningEffort: effort } };
  }
}

/**
 * Per-provider request options. The Responses API is used statelessly: lathe resends the
 * conversation itself, so earlier replies must not be referenced by id.
 */
export function providerOptionsFor(spec: ModelSpec, effort?: Effort): SharedV3ProviderOptions | undefined {
  const base: SharedV3ProviderOptions = spec.provider === 'openai' ? { openai: { store: false } } : {};
  if (effort) {
    for (const [provider, options] of Object.entries(effortOptions(spec, effort)))
      base[provider] = { ...base[provider], ...options };
  }
  return Object.keys(base).length > 0 ? base : undefined;
}

/** ANTHROPIC_BASE_URL is the host (the SDKs add /v1); the AI SDK wants the /v1 URL. */
function anthropicBase(env: NodeJS.ProcessEnv): string | undefined {
  const base = env.ANTHROPIC_BASE_URL?.replace(/\/+$/, '');
  if (!base) return undefined;
  return base.endsWith('/v1') ? base : `${base}/v1`;
}

/** GOOGLE_GEMINI_BASE_URL is the host; the AI SDK wants the /v1beta URL. */
function geminiBase(base: string): string {
  return /\/v1(beta|alpha)?$/.test(base) ? base : `${base}/v1beta`;
}
