import type { LanguageModelV3 } from '@ai-sdk/provider';
import { DEFAULT_MODEL_TIMEOUTS, type ModelTimeouts } from '../config/timeouts.js';
import { ModelConfigError, type ModelSpec } from './model_spec.js';
import { fetchWithTimeouts } from './timed_fetch.js';

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
 * The AI SDK model for a spec, with keys and endpoints from the options or the usual
 * environment variables. Provider packages are loaded only when used.
 */
export async function createModel(spec: ModelSpec, options: ProviderOptions = {}): Promise<LanguageModelV3> {
  const env = options.env ?? process.env;
  const baseURL = checkUrl(options.baseUrl);
  const fetch = fetchWithTimeouts(options.timeouts ?? DEFAULT_MODEL_TIMEOUTS);
  switch (spec.provider) {
    case 'anthropic': {
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      const apiKey = required(options.apiKey ?? env.ANTHROPIC_API_KEY, 'ANTHROPIC_API_KEY', spec);
      return createAnthropic({ apiKey, baseURL: baseURL ?? checkUrl(anthropicBase(env)), fetch })(
        spec.modelId,
      );
    }
    case 'openai':
    case 'openai-chat': {
      const { createOpenAI } = await import('@ai-sdk/openai');
      const apiKey = required(options.apiKey ?? env.OPENAI_API_KEY, 'OPENAI_API_KEY', spec);
      const provider = createOpenAI({ apiKey, baseURL: baseURL ?? checkUrl(env.OPENAI_BASE_URL), fetch });
      return spec.provider === 'openai' ? provider.responses(spec.modelId) : provider.chat(spec.modelId);
    }
    case 'google': {
      const { createGoogleGenerativeAI } = await import('@ai-sdk/google');
      const apiKey = required(
        options.apiKey ?? env.GEMINI_API_KEY ?? env.GOOGLE_GENERATIVE_AI_API_KEY,
        'GEMINI_API_KEY',
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
      const apiKey = options.apiKey ?? env.OPENAI_COMPATIBLE_API_KEY;
      return createOpenAICompatible({ name: spec.provider, baseURL: url, apiKey, includeUsage: true, fetch })(
        spec.modelId,
      );
    }
  }
}

/**
 * Per-provider request options. The Responses API is used statelessly: lathe resends the
 * conversation itself, so earlier replies must not be referenced by id.
 */
export function providerOptionsFor(
  spec: ModelSpec,
): Record<string, Record<string, string | boolean>> | undefined {
  return spec.provider === 'openai' ? { openai: { store: false } } : undefined;
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
