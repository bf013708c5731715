import type { LanguageModelV3, LanguageModelV3ProviderTool, SharedV3ProviderOptions } from '@ai-sdk/provider';
import { parseModelSpec } from '../provider/model_spec.js';
import type { SearchQuery, SearchResult } from '../web/search/types.js';
import { NativeSearchResults } from './native_search_results.js';

/** The provider's search tool for a model, or undefined when its provider has none lathe knows. */
async function searchTool(
  modelName: string,
  domains?: string[],
): Promise<LanguageModelV3ProviderTool | undefined> {
  const { provider } = parseModelSpec(modelName);
  const named = (
    tool: { id: string; args: Record<string, unknown> },
    name: string,
  ): LanguageModelV3ProviderTool => ({
    type: 'provider',
    id: tool.id as `${string}.${string}`,
    name,
    args: tool.args,
  });
  switch (provider) {
    case 'anthropic': {
      const { anthropic } = await import('@ai-sdk/anthropic');
      const args = { maxUses: 2, ...(domains?.length ? { allowedDomains: domains } : {}) };
      return named(anthropic.tools.webSearch_20250305(args) as never, 'web_search');
    }
    case 'openai': {
      const { openai } = await import('@ai-sdk/openai');
      const args = domains?.length ? { filters: { allowedDomains: domains } } : {};
      return named(openai.tools.webSearch(args) as never, 'web_search');
    }
    case 'google': {
      const { google } = await import('@ai-sdk/google');
      return named(google.tools.googleSearch({}) as never, 'google_search');
    }
    default:
      return undefined;
  }
}

/** Whether the model's provider has a search of its own. */
export function hasNativeSearch(modelName: string): boolean {
  const { provider } = parseModelSpec(modelName);
  return provider === 'anthropic' || provider === 'openai' || provider === 'google';
}

/** The request to the model: search, then name the pages found (Gemini takes no domain filter: `site:` terms). */
function searchPrompt(modelName: string, query: SearchQuery): string {
  const sites =
    parseModelSpec(modelName).provider === 'google' && query.domains?.length
      ? ` (${query.domains.map((d) => `site:${d}`).join(' OR ')})`
      : '';
  return (
    `Search the web for: ${query.query}${sites}\n` +
    `List the ${query.maxResults} most relevant pages you found, one line each: what the page says, citing it.`
  );
}

/**
 * One search through the provider's own search tool, run by the model itself, streamed as every
 * request of the session is. `providerOptions` are the session's (OpenAI's `store: false` among them).
 */
export async function nativeSearch(
  model: LanguageModelV3,
  modelName: string,
  query: SearchQuery,
  signal: AbortSignal,
  providerOptions?: SharedV3ProviderOptions,
): Promise<SearchResult[]> {
  const tool = await searchTool(modelName, query.domains);
  if (!tool)
    throw new Error(`${modelName} has no search of its own; configure another backend in "web.search"`);
  const { stream } = await model.doStream({
    prompt: [{ role: 'user', content: [{ type: 'text', text: searchPrompt(modelName, query) }] }],
    tools: [tool],
    providerOptions,
    abortSignal: signal,
  });
  const found = new NativeSearchResults();
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      found.read(value);
    }
  } finally {
    reader.releaseLock();
  }
  return found.results().slice(0, query.maxResults);
}
