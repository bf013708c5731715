import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import type { ToolContext } from '../../tool/types.js';
import { searchBackend } from '../../web/search/backends.js';
import { searchChain } from '../../web/search/chain.js';
import type { SearchBackend, SearchResult } from '../../web/search/types.js';
import { webAccessOf } from './web_access.js';

const DEFAULT_RESULTS = 8;

/** The answer when no backend is configured: what to write in settings. */
export const HOW_TO_CONFIGURE =
  'No search backend is configured, so web_search cannot search. Set one in settings (~/.lathe/settings/settings.json or ' +
  '.agents/settings.json), for example "web": {"search": {"provider": "brave", "apiKey": "…"}}. Providers: native ' +
  "(the model provider's own search: Anthropic, OpenAI, Gemini), brave (BRAVE_API_KEY), tavily (TAVILY_API_KEY), " +
  'exa (EXA_API_KEY), searxng (with "url" of your server), duckduckgo (no key); "fallback" lists more to try in turn. ' +
  'Tell the user, or use web_fetch on a URL you know.';

const inputSchema = lazySchema(() =>
  z.strictObject({
    query: z.string().min(1).describe('What to search for'),
    max_results: z
      .number()
      .int()
      .min(1)
      .max(20)
      .optional()
      .describe(`How many results (default ${DEFAULT_RESULTS})`),
    domains: z
      .array(z.string().min(1))
      .optional()
      .describe('Only results from these domains (and their subdomains), e.g. ["docs.python.org"]'),
  }),
);

function backends(ctx: ToolContext): SearchBackend[] {
  const web = webAccessOf(ctx);
  return web.settings.search.map((settings): SearchBackend => {
    if (settings.provider !== 'native') return searchBackend(settings, web.env);
    const native = ctx.models?.nativeSearch;
    const model = ctx.models?.modelName ?? 'this model';
    return {
      name: 'native',
      search: native
        ? (query, signal) => native(query, signal)
        : async () => {
            throw new Error(`${model} has no search of its own`);
          },
    };
  });
}

function listing(results: SearchResult[]): string {
  return results
    .map((r, i) => {
      const about = [r.date, r.snippet].filter(Boolean).join(' — ');
      return `${i + 1}. ${r.title}\n   ${r.url}${about ? `\n   ${about}` : ''}`;
    })
    .join('\n');
}

export const webSearch = buildTool({
  name: 'web_search',
  inputSchema,
  description:
    'Search the web: titles, links, dates and snippets from the search backend the user configured. Use it for ' +
    'current information, documentation and error messages; read a result with web_fetch. `domains` keeps results ' +
    'to some sites.',
  liteDescription: 'Search the web; returns titles, links and snippets.',
  availability: { profiles: ['standard'], feature: 'web' },
  kind: 'fetch',
  userFacingName: () => 'Search the web',
  detail: (input) => input.query,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  permissionSubject: () => ({ kind: 'web' }),
  async call(input, ctx) {
    const chain = backends(ctx);
    if (chain.length === 0) return { text: HOW_TO_CONFIGURE, data: { configured: false } };
    const query = {
      query: input.query,
      maxResults: input.max_results ?? DEFAULT_RESULTS,
      domains: input.domains,
    };
    try {
      const answer = await searchChain(chain, query, ctx.signal);
      const fellThrough =
        answer.failures.length > 0 ? `\n(${answer.failures.join('; ')}; used ${answer.backend})` : '';
      const head = `${answer.results.length} result${answer.results.length === 1 ? '' : 's'} for "${input.query}" from ${answer.backend}${fellThrough}`;
      return {
        text: answer.results.length > 0 ? `${head}\n\n${listing(answer.results)}` : `${head}.`,
        data: { backend: answer.backend, results: answer.results, failures: answer.failures },
      };
    } catch (error) {
      return { isError: true, text: (error as Error).message };
    }
  },
});
