import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type CachePolicy from 'http-cache-semantics';
import type { LRUCache } from 'lru-cache';
import { replaceJsonFileSync } from '../util/json_file.js';
import type { RawResponse } from './pinned_request.js';

/** However fresh a server says a page is, a cached copy is served without asking for 15 minutes at most. */
export const MAX_CACHE_MS = 15 * 60_000;
/** Memory the cached bodies may take. */
const MEMORY_BYTES = 64 * 1024 * 1024;

export type CacheRequest = { url: string; method: 'GET'; headers: Record<string, string> };

export interface CacheEntry {
  /** The page's own URL (after redirects): where a revalidation goes. */
  response: RawResponse;
  policy: CachePolicy;
  storedAt: number;
}

interface StoredEntry {
  response: Omit<RawResponse, 'body'> & { body: string };
  policy: CachePolicy.CachePolicyObject;
  storedAt: number;
}

/**
 * Fetched pages by the URL asked for, with their HTTP caching policy (`http-cache-semantics`): in
 * memory, and as files under the session folder so a resumed session still has them. A stale
 * entry with a validator (ETag, Last-Modified) is revalidated with a conditional request.
 */
export class HttpCache {
  private memory?: LRUCache<string, CacheEntry>;
  /** What callers made of a cached response (its Markdown), kept as long as the response is. */
  readonly derived = new WeakMap<RawResponse, unknown>();

  constructor(
    /** Where entries are written; undefined keeps them in memory only. */
    private readonly folder: string | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  private async lru(): Promise<LRUCache<string, CacheEntry>> {
    if (!this.memory) {
      const { LRUCache } = await import('lru-cache');
      this.memory = new LRUCache<string, CacheEntry>({
        maxSize: MEMORY_BYTES,
        sizeCalculation: (entry) => Math.max(1, entry.response.body.length),
      });
    }
    return this.memory;
  }

  private fileOf(url: string): string | undefined {
    return (
      this.folder && join(this.folder, `${createHash('sha256').update(url).digest('hex').slice(0, 32)}.json`)
    );
  }

  /** The entry for `url`, from memory or disk; undefined when there is none (or it cannot be read). */
  async get(url: string): Promise<CacheEntry | undefined> {
    const lru = await this.lru();
    const known = lru.get(url);
    if (known) return known;
    const file = this.fileOf(url);
    if (!file) return undefined;
    try {
      const stored = JSON.parse(readFileSync(file, 'utf8')) as StoredEntry;
      const { default: Policy } = await import('http-cache-semantics');
      const entry: CacheEntry = {
        response: { ...stored.response, body: Buffer.from(stored.response.body, 'base64') },
        policy: Policy.fromObject(stored.policy),
        storedAt: stored.storedAt,
      };
      lru.set(url, entry);
      return entry;
    } catch {
      return undefined;
    }
  }

  /** Whether the entry may be served without asking the server. */
  isFresh(entry: CacheEntry, request: CacheRequest): boolean {
    const age = this.now() - entry.storedAt;
    return age < MAX_CACHE_MS && entry.policy.satisfiesWithoutRevalidation(request);
  }

  /** A policy for a response just received. */
  async policyFor(request: CacheRequest, response: RawResponse): Promise<CachePolicy> {
    const { default: Policy } = await import('http-cache-semantics');
    return new Policy(request, { status: response.status, headers: response.headers }, { shared: false });
  }

  /** Keeps a response when its policy lets it be stored or it can be revalidated later. */
  async put(url: string, response: RawResponse, policy: CachePolicy): Promise<void> {
    const validators = response.headers.etag || response.headers['last-modified'];
    if (!policy.storable() || (policy.timeToLive() <= 0 && !validators)) return;
    const entry: CacheEntry = { response, policy, storedAt: this.now() };
    (await this.lru()).set(url, entry);
    const file = this.fileOf(url);
    if (!file || !this.folder) return;
    const stored: StoredEntry = {
      response: { ...response, body: response.body.toString('base64') },
      policy: policy.toObject(),
      storedAt: entry.storedAt,
    };
    try {
      mkdirSync(this.folder, { recursive: true });
      replaceJsonFileSync(file, stored);
    } catch {
      // A cache that cannot be written is only a slower fetch next time.
    }
  }
}
