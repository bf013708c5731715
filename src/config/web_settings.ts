import type { SettingsLayer } from './types.js';

/** The search backends `web.search.provider` may name; `native` is the model provider's own search. */
export const SEARCH_PROVIDERS = ['native', 'brave', 'tavily', 'exa', 'searxng', 'duckduckgo'] as const;
export type SearchProvider = (typeof SEARCH_PROVIDERS)[number];

/** One search backend as settings name it: its key (else from the environment) and its URL. */
export interface SearchBackendSettings {
  provider: SearchProvider;
  apiKey?: string;
  /** SearXNG's address (required for it); for the others, an endpoint that replaces the default. */
  url?: string;
}

/** `web` settings, resolved: what web_fetch may reach and how long and how much it may take. */
export interface WebSettings {
  /** Non-public ranges, addresses and host names fetches may reach (`10.0.0.0/8`, `intranet.example`). */
  allow: string[];
  connectTimeoutMs: number;
  totalTimeoutMs: number;
  maxBytes: number;
  /** The search backends in the order they are tried; empty when none is configured. */
  search: SearchBackendSettings[];
}

export const DEFAULT_WEB_SETTINGS: WebSettings = {
  allow: [],
  connectTimeoutMs: 10_000,
  totalTimeoutMs: 30_000,
  maxBytes: 10 * 1024 * 1024,
  search: [],
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const positive = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value > 0;

function backendProblem(value: unknown, key: string): string | undefined {
  const entry = typeof value === 'string' ? { provider: value } : value;
  if (!isObject(entry)) return `"${key}" must be a provider name or an object with "provider"`;
  if (!SEARCH_PROVIDERS.includes(entry.provider as SearchProvider))
    return `"${key}.provider" must be one of ${SEARCH_PROVIDERS.join(', ')}`;
  for (const name of ['apiKey', 'url'] as const)
    if (entry[name] !== undefined && typeof entry[name] !== 'string')
      return `"${key}.${name}" must be a string`;
  if (entry.provider === 'searxng' && typeof entry.url !== 'string')
    return `"${key}" (searxng) needs "url", the address of the SearXNG server`;
  return undefined;
}

/** The problems of a `web` section, each naming its key. */
export function webSettingsProblems(value: unknown): string[] {
  if (!isObject(value)) return ['"web" must be an object'];
  const problems: string[] = [];
  const { allow, timeouts, maxBytes, search } = value;
  if (allow !== undefined && !(Array.isArray(allow) && allow.every((a) => typeof a === 'string')))
    problems.push('"web.allow" must be a list of ranges, addresses or host names');
  if (timeouts !== undefined) {
    if (!isObject(timeouts)) problems.push('"web.timeouts" must be an object');
    else
      for (const name of ['connect', 'total'])
        if (timeouts[name] !== undefined && !positive(timeouts[name]))
          problems.push(`"web.timeouts.${name}" must be a positive number of seconds`);
  }
  if (maxBytes !== undefined && !(positive(maxBytes) && Number.isInteger(maxBytes)))
    problems.push('"web.maxBytes" must be a positive whole number of bytes');
  if (search !== undefined) {
    const first = backendProblem(search, 'web.search');
    if (first) problems.push(first);
    const fallback = isObject(search) ? search.fallback : undefined;
    if (fallback !== undefined) {
      if (!Array.isArray(fallback)) problems.push('"web.search.fallback" must be a list');
      else
        fallback.forEach((item, i) => {
          const problem = backendProblem(item, `web.search.fallback[${i}]`);
          if (problem) problems.push(problem);
        });
    }
  }
  return problems;
}

function backend(value: unknown): SearchBackendSettings {
  const entry = (typeof value === 'string' ? { provider: value } : value) as SearchBackendSettings;
  return { provider: entry.provider, apiKey: entry.apiKey, url: entry.url };
}

/** Applies one layer's `web` section (checked by validate.ts): a later layer's values win; allow lists add up. */
export function mergeWebSettings(resolved: WebSettings, settings: SettingsLayer): void {
  const web = settings.web;
  if (!isObject(web) || webSettingsProblems(web).length > 0) return;
  if (Array.isArray(web.allow)) resolved.allow = [...resolved.allow, ...(web.allow as string[])];
  const timeouts = web.timeouts as { connect?: number; total?: number } | undefined;
  if (timeouts?.connect) resolved.connectTimeoutMs = Math.round(timeouts.connect * 1000);
  if (timeouts?.total) resolved.totalTimeoutMs = Math.round(timeouts.total * 1000);
  if (typeof web.maxBytes === 'number') resolved.maxBytes = web.maxBytes;
  if (web.search !== undefined) {
    const fallback = isObject(web.search) && Array.isArray(web.search.fallback) ? web.search.fallback : [];
    resolved.search = [backend(web.search), ...fallback.map(backend)];
  }
}
