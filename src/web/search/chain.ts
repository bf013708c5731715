import type { SearchBackend, SearchQuery, SearchResult } from './types.js';

export interface ChainAnswer {
  /** The backend that answered. */
  backend: string;
  results: SearchResult[];
  /** Backends tried before it, and why each failed. */
  failures: string[];
}

function inDomains(result: SearchResult, domains: readonly string[]): boolean {
  let host: string;
  try {
    host = (result.site ?? new URL(result.url).hostname).toLowerCase();
  } catch {
    return false;
  }
  return domains.some((d) => {
    const domain = d.toLowerCase().replace(/^\*?\./, '');
    return host === domain || host.endsWith(`.${domain}`);
  });
}

/**
 * Asks each backend in turn until one answers; a failure (no key, an error status, a timeout)
 * falls through to the next. Results are cut to `maxResults`, kept to `domains`, duplicates out.
 * Throws with every backend's reason when none answered.
 */
export async function searchChain(
  backends: readonly SearchBackend[],
  query: SearchQuery,
  signal: AbortSignal,
): Promise<ChainAnswer> {
  const failures: string[] = [];
  for (const backend of backends) {
    if (signal.aborted) break;
    try {
      const found = await backend.search(query, signal);
      const seen = new Set<string>();
      const results = found.filter((r) => {
        if (seen.has(r.url)) return false;
        seen.add(r.url);
        return !query.domains?.length || inDomains(r, query.domains);
      });
      return { backend: backend.name, results: results.slice(0, query.maxResults), failures };
    } catch (error) {
      failures.push(`${backend.name}: ${(error as Error).message}`);
    }
  }
  throw new Error(
    signal.aborted ? 'The search was interrupted.' : `No search backend answered: ${failures.join('; ')}`,
  );
}
