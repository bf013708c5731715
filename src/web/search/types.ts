/** One search result, the same shape whatever backend found it. */
export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
  /** When the page was published or last seen, as the backend gives it. */
  date?: string;
  /** The page's site when `url` is a redirect to it (Gemini's grounding links): domain filters judge this. */
  site?: string;
}

export interface SearchQuery {
  query: string;
  maxResults: number;
  /** Only results from these domains (and their subdomains). */
  domains?: string[];
}

/** A search backend: its name for messages, and the search. Failures are thrown as Errors with one line. */
export interface SearchBackend {
  name: string;
  search(query: SearchQuery, signal: AbortSignal): Promise<SearchResult[]>;
}
