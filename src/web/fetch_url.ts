import { type AddressPolicy, checkTarget, nonPublicReason } from './address_policy.js';
import type { CacheRequest, HttpCache } from './http_cache.js';
import { parseUrl } from './parse_url.js';
import { pinnedRequest, type RawResponse } from './pinned_request.js';
import { WebError } from './web_error.js';

export const MAX_REDIRECTS = 5;

export interface FetchOptions {
  policy: AddressPolicy;
  connectTimeoutMs: number;
  totalTimeoutMs: number;
  maxBytes: number;
  cache?: HttpCache;
  signal?: AbortSignal;
  /** Asked before a redirect leaves the first host: whether the new one may be fetched without asking. */
  mayFollow?: (to: URL) => boolean;
  /** Sent with every request. */
  accept?: string;
}

export type FetchOutcome =
  | {
      kind: 'response';
      response: RawResponse;
      /** `fresh`: served without a request; `revalidated`: the server answered 304. */
      cache?: 'fresh' | 'revalidated';
    }
  /** A redirect to a host the caller did not allow: the caller says where it leads. */
  | { kind: 'redirect'; from: string; to: string; status: number };

const USER_AGENT = 'Mozilla/5.0 (compatible; lathe; +https://github.com/lathe-dev/lathe)';
const DEFAULT_ACCEPT = 'text/markdown, text/html;q=0.9, application/json;q=0.9, text/*;q=0.8, */*;q=0.5';

/** The checked target of one hop; a refusal is thrown before anything connects. */
async function checked(url: URL, policy: AddressPolicy) {
  const verdict = await checkTarget(url, policy);
  if (!verdict.ok) throw new WebError(`${url.href}: ${verdict.reason}`, 'refused');
  return verdict;
}

/**
 * GETs a URL safely: the host resolved and judged before connecting, the connection pinned to the
 * judged address, redirects followed by hand (at most 5) and every hop judged again, the body
 * capped and the whole fetch bounded in time. Plain http to a public host is upgraded to https.
 * With a cache, a fresh copy is served without a request and a stale one revalidated.
 */
export async function fetchUrl(input: string | URL, options: FetchOptions): Promise<FetchOutcome> {
  let url = typeof input === 'string' ? parseUrl(input) : input;
  const first = await checked(url, options.policy);
  if (url.protocol === 'http:' && !nonPublicReason(first.address) && !isLocalName(first.host)) {
    url = new URL(url.href);
    url.protocol = 'https:';
  }
  const key = url.href;
  const headers: Record<string, string> = {
    'user-agent': USER_AGENT,
    accept: options.accept ?? DEFAULT_ACCEPT,
    'accept-encoding': 'gzip, deflate, br',
  };
  const request = (target: URL): CacheRequest => ({ url: target.href, method: 'GET', headers });
  const cached = await options.cache?.get(key);
  if (cached && options.cache?.isFresh(cached, request(url)))
    return { kind: 'response', response: cached.response, cache: 'fresh' };

  const deadline = AbortSignal.timeout(options.totalTimeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  const limits = { ...options, signal };
  const firstHost = url.hostname;
  // A stale entry is asked about at its own address, with its validators.
  let target = cached ? new URL(cached.response.url) : url;
  let conditional = cached
    ? (cached.policy.revalidationHeaders(request(target)) as Record<string, string>)
    : {};
  for (let hop = 0; ; hop++) {
    const verdict = hop === 0 && target === url ? first : await checked(target, options.policy);
    const response = await pinnedRequest(target, verdict, { ...headers, ...conditional }, limits);
    const location = response.headers.location;
    if (response.status >= 300 && response.status < 400 && response.status !== 304 && location) {
      if (hop >= MAX_REDIRECTS)
        throw new WebError(
          `${url.href}: more than ${MAX_REDIRECTS} redirects; stopped at ${target.href}`,
          'refused',
        );
      let next: URL;
      try {
        next = new URL(location, target);
      } catch {
        throw new WebError(`${target.href} redirects to "${location}", which is not a valid URL`, 'content');
      }
      if (next.hostname !== firstHost && options.mayFollow && !options.mayFollow(next))
        return { kind: 'redirect', from: target.href, to: next.href, status: response.status };
      target = next;
      // Validators belong to the cached page, not to wherever a redirect now leads.
      conditional = {};
      continue;
    }
    if (cached && response.status === 304) {
      const { policy } = cached.policy.revalidatedPolicy(request(target), {
        status: response.status,
        headers: response.headers,
      });
      await options.cache?.put(key, cached.response, policy);
      return { kind: 'response', response: cached.response, cache: 'revalidated' };
    }
    if (options.cache && response.status === 200)
      await options.cache.put(key, response, await options.cache.policyFor(request(target), response));
    return { kind: 'response', response };
  }
}

/** `localhost` and `*.localhost` stay on plain http (they never reach another machine). */
function isLocalName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost');
}
