import type { SearchBackendSettings } from '../../config/web_settings.js';
import { WebError } from '../web_error.js';
import { duckDuckGoResults } from './duckduckgo.js';
import { requestJson, searchRequest } from './search_http.js';
import type { SearchBackend, SearchQuery, SearchResult } from './types.js';

// biome-ignore lint/suspicious/noExplicitAny: service answers are read field by field, defensively
type Json = any;

/** Where each service's key is looked for when settings give none. */
export const SEARCH_KEY_VARIABLES: Record<string, string> = {
  brave: 'BRAVE_API_KEY',
  tavily: 'TAVILY_API_KEY',
  exa: 'EXA_API_KEY',
};

const text = (value: unknown): string => (typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '');
const list = (value: unknown): Json[] => (Array.isArray(value) ? value : []);

/** `site:` terms for the services that take the domain filter in the query itself. */
function withSites(query: SearchQuery): string {
  const domains = query.domains ?? [];
  if (domains.length === 0) return query.query;
  return `${query.query} (${domains.map((d) => `site:${d}`).join(' OR ')})`;
}

function result(title: unknown, url: unknown, snippet: unknown, date?: unknown): SearchResult | undefined {
  if (typeof url !== 'string' || !/^https?:\/\//.test(url)) return undefined;
  const found: SearchResult = { title: text(title) || url, url, snippet: text(snippet) };
  if (text(date)) found.date = text(date);
  return found;
}

const present = (items: Array<SearchResult | undefined>): SearchResult[] =>
  items.filter((item): item is SearchResult => item !== undefined);

function keyOf(settings: SearchBackendSettings, env: NodeJS.ProcessEnv): string {
  const variable = SEARCH_KEY_VARIABLES[settings.provider];
  const key = settings.apiKey || (variable ? env[variable] : undefined);
  if (!key)
    throw new WebError(
      `${settings.provider} needs an API key: set "web.search.apiKey" or ${variable}`,
      'refused',
    );
  return key;
}

/** Brave Search API: the domain filter as `site:` terms. */
function searchBrave(settings: SearchBackendSettings, env: NodeJS.ProcessEnv): SearchBackend['search'] {
  const name = settings.provider;
  return async (query, signal) => {
    const url = new URL(settings.url ?? 'https://api.search.brave.com/res/v1/web/search');
    url.searchParams.set('q', withSites(query));
    url.searchParams.set('count', String(Math.min(20, query.maxResults)));
    const headers = { 'x-subscription-token': keyOf(settings, env), accept: 'application/json' };
    const answer = (await requestJson(name, url.href, { headers }, signal)) as Json;
    return present(
      list(answer?.web?.results).map((r) => result(r?.title, r?.url, r?.description, r?.page_age ?? r?.age)),
    );
  };
}

/** Tavily: the domain filter as its `include_domains`. */
function searchTavily(settings: SearchBackendSettings, env: NodeJS.ProcessEnv): SearchBackend['search'] {
  const name = settings.provider;
  return async (query, signal) => {
    const body = JSON.stringify({
      query: query.query,
      max_results: query.maxResults,
      ...(query.domains?.length ? { include_domains: query.domains } : {}),
    });
    const headers = {
      authorization: `Bearer ${keyOf(settings, env)}`,
      'content-type': 'application/json',
    };
    const url = settings.url ?? 'https://api.tavily.com/search';
    const answer = (await requestJson(name, url, { method: 'POST', headers, body }, signal)) as Json;
    return present(list(answer?.results).map((r) => result(r?.title, r?.url, r?.content, r?.published_date)));
  };
}

/** Exa: snippets from its highlights, else the start of the page text. */
function searchExa(settings: SearchBackendSettings, env: NodeJS.ProcessEnv): SearchBackend['search'] {
  const name = settings.provider;
  return async (query, signal) => {
    const body = JSON.stringify({
      query: query.query,
      numResults: query.maxResults,
      ...(query.domains?.length ? { includeDomains: query.domains } : {}),
      contents: { highlights: { numSentences: 2 } },
    });
    const headers = { 'x-api-key': keyOf(settings, env), 'content-type': 'application/json' };
    const url = settings.url ?? 'https://api.exa.ai/search';
    const answer = (await requestJson(name, url, { method: 'POST', headers, body }, signal)) as Json;
    return present(
      list(answer?.results).map((r) =>
        result(
          r?.title,
          r?.url,
          list(r?.highlights).join(' … ') || r?.text?.slice?.(0, 300),
          r?.publishedDate,
        ),
      ),
    );
  };
}

/** A SearXNG server at the address settings give, answering in JSON. */
function searchSearxng(settings: SearchBackendSettings): SearchBackend['search'] {
  const name = settings.provider;
  return async (query, signal) => {
    if (!settings.url)
      throw new WebError('searxng needs "web.search.url", the address of the server', 'refused');
    const url = new URL('search', settings.url.endsWith('/') ? settings.url : `${settings.url}/`);
    url.searchParams.set('q', withSites(query));
    url.searchParams.set('format', 'json');
    const answer = (await requestJson(name, url.href, {}, signal)) as Json;
    return present(list(answer?.results).map((r) => result(r?.title, r?.url, r?.content, r?.publishedDate)));
  };
}

/** DuckDuckGo's HTML page, read by duckDuckGoResults. */
function searchDuckDuckGo(settings: SearchBackendSettings): SearchBackend['search'] {
  const name = settings.provider;
  return async (query, signal) => {
    const url = settings.url ?? 'https://html.duckduckgo.com/html/';
    const body = new URLSearchParams({ q: withSites(query) }).toString();
    const headers = { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' };
    const html = await searchRequest(name, url, { method: 'POST', headers, body }, signal);
    return duckDuckGoResults(html);
  };
}

/** The backend settings name, for every provider but `native` (which the model provider runs). */
export function searchBackend(settings: SearchBackendSettings, env: NodeJS.ProcessEnv): SearchBackend {
  const name = settings.provider;
  switch (name) {
    case 'brave':
      return { name, search: searchBrave(settings, env) };
    case 'tavily':
      return { name, search: searchTavily(settings, env) };
    case 'exa':
      return { name, search: searchExa(settings, env) };
    case 'searxng':
      return { name, search: searchSearxng(settings) };
    case 'duckduckgo':
      return { name, search: searchDuckDuckGo(settings) };
    case 'native':
      throw new Error('the native backend is the model provider’s own and is made by the agent');
  }
}
