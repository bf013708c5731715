/**
 * The headers providers carry their keys in besides Authorization: Anthropic's, Gemini's, Azure's.
 * fetch drops Authorization, Proxy-Authorization and Cookie when a redirect leaves the origin, but
 * sends these on to any host.
 */
const KEY_HEADERS = ['x-api-key', 'x-goog-api-key', 'api-key'];
/** What a hop that leaves the origin drops: fetch's own credentials (it drops them itself only on its own redirects) and the keys. */
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie', ...KEY_HEADERS];
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Headers about a body, dropped with it when a redirect turns the request into a GET. */
const BODY_HEADERS = [
  'content-type',
  'content-length',
  'content-encoding',
  'content-language',
  'content-location',
];
/** fetch's own limit on the redirects of one request. */
const MAX_REDIRECTS = 20;

/**
 * fetch that never carries a provider key to another origin. A request with a key header is sent
 * with `redirect: 'manual'`; a redirect it gets is taken one hop at a time, with the key while the
 * hop stays on the origin and without it once it leaves (then fetch follows the rest itself).
 * Everything else (a request without such a header, `redirect: 'manual'` or `'error'`, a Request
 * object) is fetch's own.
 */
export function keysStayOnOrigin(base: typeof fetch): typeof fetch {
  async function hop(url: URL, init: RequestInit, hops: number): Promise<Response> {
    const response = await base(url, { ...init, redirect: 'manual' });
    const location = response.headers.get('location');
    if (!REDIRECT_STATUSES.has(response.status) || location === null) return response;
    await response.body?.cancel();
    if (hops === MAX_REDIRECTS)
      throw new TypeError('fetch failed', { cause: new Error(`more than ${MAX_REDIRECTS} redirects`) });
    const next = new URL(location, url);
    const nextInit = redirectedInit(init, response.status);
    if (next.origin === url.origin) return hop(next, nextInit, hops + 1);
    const headers = new Headers(nextInit.headers);
    for (const name of CREDENTIAL_HEADERS) headers.delete(name);
    return base(next, { ...nextInit, headers, redirect: 'follow' });
  }
  return (input, init) => {
    const follows = (init?.redirect ?? 'follow') === 'follow';
    const plainUrl = typeof input === 'string' || input instanceof URL;
    if (!init || !follows || !plainUrl || !carriesKey(init.headers)) return base(input, init);
    return hop(new URL(input), { ...init, headers: new Headers(init.headers) }, 0);
  };
}

function carriesKey(headers: RequestInit['headers']): boolean {
  if (headers === undefined) return false;
  const list = new Headers(headers);
  return KEY_HEADERS.some((name) => list.has(name));
}

/** The request a redirect asks for, as fetch makes it: 303, and 301 or 302 after a POST, become a GET without a body. */
function redirectedInit(init: RequestInit, status: number): RequestInit {
  const method = (init.method ?? 'GET').toUpperCase();
  const toGet = status === 303 ? method !== 'HEAD' : (status === 301 || status === 302) && method === 'POST';
  if (!toGet) return init;
  const headers = new Headers(init.headers);
  for (const name of BODY_HEADERS) headers.delete(name);
  return { ...init, method: 'GET', body: undefined, headers };
}
