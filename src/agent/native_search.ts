import type { LanguageModelV3, LanguageModelV3Content, LanguageModelV3ProviderTool } from '@ai-sdk/provider';
import { parseModelSpec } from '../provider/model_spec.js';
import type { SearchQuery, SearchResult } from '../web/search/types.js';

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

/** The sources the provider's search found, as search results; the model's answer is each one's snippet where cited. */
function resultsOf(content: LanguageModelV3Content[]): SearchResult[] {
  const answer = content
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('')
    .trim();
  const results: SearchResult[] = [];
  for (const part of content) {
    if (part.type !== 'source' || part.sourceType !== 'url') continue;
    if (results.some((r) => r.url === part.url)) continue;
    results.push({ title: part.title ?? part.url, url: part.url, snippet: '' });
  }
  if (results.length > 0 && answer) results[0].snippet = answer.slice(0, 600);
  return results;
}

/** One search through the provider's own search tool, run by the model itself. */
export async function nativeSearch(
  model: LanguageModelV3,
  modelName: string,
  query: SearchQuery,
  signal: AbortSignal,
): Promise<SearchResult[]> {
  const tool = await searchTool(modelName, query.domains);
  if (!tool)
    throw new Error(`${modelName} has no search of its own; configure another backend in "web.search"`);
  const prompt = `Search the web for: ${query.query}\nList the ${query.maxResults} most relevant pages you found, one line each.`;
  const result = await model.doGenerate({
    prompt: [{ role: 'user', content: [{ type: 'text', text: prompt }] }],
    tools: [tool],
    abortSignal: signal,
  });
  return resultsOf(result.content).slice(0, query.maxResults);
}
