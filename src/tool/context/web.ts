import type { WebSettings } from '../../config/web_settings.js';
import type { Resolver } from '../../web/address_policy.js';
import type { HttpCache } from '../../web/http_cache.js';
import type { SearchQuery, SearchResult } from '../../web/search/types.js';

/** What web_fetch and web_search need of the runtime: settings, the page cache, a resolver. */
export interface WebAccess {
  settings: WebSettings;
  cache: HttpCache;
  /** Resolves host names; the system's when absent (tests give their own). */
  resolve?: Resolver;
  /** Where search keys are read from when settings give none. */
  env: NodeJS.ProcessEnv;
}

/** What tools may ask of the model the agent runs on. */
export interface ModelAccess {
  /** `provider/model`. */
  modelName: string;
  /**
   * One question without tools, answered by the provider's small fast model (else the agent's
   * own); returns the answer and the model that gave it.
   */
  askSmall(
    request: { system: string; prompt: string },
    signal: AbortSignal,
  ): Promise<{ text: string; model: string }>;
  /** The provider's own web search (Anthropic, OpenAI, Gemini); absent for a provider without one. */
  nativeSearch?(query: SearchQuery, signal: AbortSignal): Promise<SearchResult[]>;
}
