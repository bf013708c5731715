import type {
  LanguageModelV3FunctionTool,
  LanguageModelV3Message,
  SharedV3ProviderOptions,
} from '@ai-sdk/provider';

/** The parts of a model request that say what to cache. */
export interface CacheableRequest {
  /** The system message first, then the conversation. */
  prompt: LanguageModelV3Message[];
  tools?: LanguageModelV3FunctionTool[];
  providerOptions?: SharedV3ProviderOptions;
}

/** Anthropic takes at most four cache breakpoints in a request. */
export const MAX_ANTHROPIC_BREAKPOINTS = 4;

const EPHEMERAL = { cacheControl: { type: 'ephemeral' } };

function withBreakpoint<T extends { providerOptions?: SharedV3ProviderOptions }>(item: T): T {
  const options = item.providerOptions ?? {};
  return { ...item, providerOptions: { ...options, anthropic: { ...options.anthropic, ...EPHEMERAL } } };
}

/**
 * Where Anthropic's cache breakpoints go, in the conversation: the last message (this request's
 * prefix is written to the cache) and the last message before the model's latest reply (the
 * previous request's tail, which that request wrote: a sure read, however many blocks the reply
 * and its tool results added since).
 */
export function conversationBreakpoints(messages: LanguageModelV3Message[]): number[] {
  const last = messages.length - 1;
  if (last < 0) return [];
  let reply = last;
  while (reply >= 0 && messages[reply].role !== 'assistant') reply--;
  let previous = reply - 1;
  while (previous >= 0 && (messages[previous].role === 'assistant' || messages[previous].role === 'system'))
    previous--;
  return previous >= 0 && previous !== last ? [previous, last] : [last];
}

/**
 * Anthropic caches only up to explicit breakpoints: one on the last tool (the tools rarely
 * change), one on the system prompt (changes with the mode), and two on the conversation, so
 * each request reads everything before its newest messages from the cache and pays in full
 * only for those. The conversation itself is not changed: marked messages are copies.
 */
function markAnthropic(request: CacheableRequest): CacheableRequest {
  const tools = request.tools?.map((tool, i, all) => (i === all.length - 1 ? withBreakpoint(tool) : tool));
  const systemEnd = request.prompt.findIndex((m) => m.role !== 'system');
  const systemCount = systemEnd === -1 ? request.prompt.length : systemEnd;
  const conversation = request.prompt.slice(systemCount);
  const marked = new Set(conversationBreakpoints(conversation).map((i) => i + systemCount));
  if (systemCount > 0) marked.add(systemCount - 1);
  const prompt = request.prompt.map((message, i) =>
    marked.has(i) ? withBreakpoint(message) : message,
  ) as LanguageModelV3Message[];
  return { ...request, prompt, tools };
}

/**
 * The request with prompt caching asked for, in each provider's way. Anthropic: cache
 * breakpoints. OpenAI caches prefixes by itself; `promptCacheKey` (one per session) routes the
 * session's requests to the same cache. Gemini 2.5 and later cache prefixes implicitly. The
 * others (local and compatible endpoints) get the request unchanged.
 */
export function withPromptCache(provider: string, request: CacheableRequest, key: string): CacheableRequest {
  if (provider.startsWith('anthropic.')) return markAnthropic(request);
  if (provider.startsWith('openai.')) {
    const options = request.providerOptions ?? {};
    return {
      ...request,
      providerOptions: { ...options, openai: { ...options.openai, promptCacheKey: key } },
    };
  }
  return request;
}
