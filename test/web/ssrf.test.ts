import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchUrl } from '../../src/web/fetch_url.js';
import { WebError } from '../../src/web/web_error.js';
import { type LocalServer, localServer, tableResolver } from './local_server.js';

const limits = { connectTimeoutMs: 5_000, totalTimeoutMs: 10_000, maxBytes: 1024 * 1024 };

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebError);
  return (error as WebError).message;
}

describe('what web_fetch will not reach', () => {
  let target: LocalServer;
  beforeAll(async () => {
    target = await localServer((_req, res) => res.end('secret'));
  });
  afterAll(() => target.close());

  it('refuses every spelling of the loopback address, and nothing connects', async () => {
    const port = target.port;
    const spellings = [
      `http://127.0.0.1:${port}/`,
      `http://0x7f000001:${port}/`,
      `http://2130706433:${port}/`,
      `http://0177.0.0.1:${port}/`,
      `http://127.1:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://[::ffff:7f00:1]:${port}/`,
      `http://user:pass@127.0.0.1:${port}/`,
      `http://example.com@127.0.0.1:${port}/`,
      `http://[::1]:${port}/`,
      `http://0.0.0.0:${port}/`,
    ];
    for (const url of spellings) {
      const message = await refusal(fetchUrl(url, { policy: { allow: [] }, ...limits }));
      expect(message, url).toMatch(/refused \(allow it in settings "web\.allow"\)/);
    }
    expect(target.connections).toBe(0);
  });

  it('refuses IPv6 addresses that carry a loopback IPv4 address, and nothing connects', async () => {
    const port = target.port;
    const urls = [
      `http://[::127.0.0.1]:${port}/`,
      `http://[::7f00:1]:${port}/`,
      `http://[::ffff:0:127.0.0.1]:${port}/`,
      `http://[2002:7f00:1::1]:${port}/`,
      `http://[2001:0:7f00:1::1]:${port}/`,
      `http://[64:ff9b::127.0.0.1]:${port}/`,
      `http://[64:ff9b:1::127.0.0.1]:${port}/`,
    ];
    for (const url of urls) {
      const message = await refusal(fetchUrl(url, { policy: { allow: [] }, ...limits }));
      expect(message, url).toMatch(/carrying 127\.0\.0\.1, a loopback address; refused/);
    }
    const resolve = tableResolver({ 'compat.example': ['::7f00:1'] });
    const named = `http://compat.example:${port}/`;
    expect(await refusal(fetchUrl(named, { policy: { allow: [], resolve }, ...limits }))).toMatch(
      /compat\.example resolves to ::7f00:1, which is an IPv4-compatible address carrying 127\.0\.0\.1/,
    );
    expect(target.connections).toBe(0);
  });

  it('refuses a redirect to cloud metadata spelled as an IPv4-compatible or NAT64 address', async () => {
    const redirector = await localServer((req, res) => {
      const to = req.url === '/compat' ? 'http://[::169.254.169.254]/' : 'http://[64:ff9b::a9fe:a9fe]/';
      res.writeHead(302, { location: to }).end();
    });
    try {
      const policy = { allow: ['127.0.0.1'] };
      expect(await refusal(fetchUrl(`${redirector.url}/compat`, { policy, ...limits }))).toMatch(
        /^http:\/\/\[::a9fe:a9fe\]\/: ::a9fe:a9fe is an IPv4-compatible address carrying 169\.254\.169\.254, a link-local/,
      );
      expect(await refusal(fetchUrl(`${redirector.url}/nat64`, { policy, ...limits }))).toMatch(
        /64:ff9b::a9fe:a9fe is a NAT64 address carrying 169\.254\.169\.254/,
      );
      expect(redirector.requests.map((r) => r.path)).toEqual(['/compat', '/nat64']);
    } finally {
      await redirector.close();
    }
  });

  it('names the reason: link-local cloud metadata, private ranges, CGNAT, unique-local', async () => {
    const policy = { allow: [] };
    expect(
      await refusal(fetchUrl('http://169.254.169.254/latest/meta-data/', { policy, ...limits })),
    ).toMatch(/link-local address \(cloud metadata/);
    expect(await refusal(fetchUrl('http://10.1.2.3/', { policy, ...limits }))).toMatch(/private address/);
    expect(await refusal(fetchUrl('http://100.64.0.1/', { policy, ...limits }))).toMatch(/carrier-grade NAT/);
    expect(await refusal(fetchUrl('http://[fd00::1]/', { policy, ...limits }))).toMatch(/unique-local/);
  });

  it('refuses a public name that resolves to 127.0.0.1', async () => {
    const resolve = tableResolver({ 'innocent.example': ['127.0.0.1'] });
    const url = `http://innocent.example:${target.port}/`;
    const message = await refusal(fetchUrl(url, { policy: { allow: [], resolve }, ...limits }));
    expect(message).toMatch(/innocent\.example resolves to 127\.0\.0\.1, which is a loopback address/);
    expect(target.connections).toBe(0);
  });

  it('refuses a name whose resolver answers a public address first and loopback second', async () => {
    const resolve = tableResolver({ 'rebind.example': ['93.184.216.34', '127.0.0.1'] });
    const url = `http://rebind.example:${target.port}/`;
    const message = await refusal(fetchUrl(url, { policy: { allow: [], resolve }, ...limits }));
    expect(message).toMatch(/127\.0\.0\.1, which is a loopback address/);
    expect(target.connections).toBe(0);
  });

  it('refuses non-HTTP schemes and malformed URLs with one line', async () => {
    const policy = { allow: ['127.0.0.1'] };
    expect(await refusal(fetchUrl('file:///etc/passwd', { policy, ...limits }))).toMatch(
      /^file:\/\/\/etc\/passwd: file: URLs are not fetched/,
    );
    expect(await refusal(fetchUrl('ftp://example.com/x', { policy, ...limits }))).toMatch(
      /ftp: URLs are not fetched/,
    );
    expect(await refusal(fetchUrl('javascript:alert(1)', { policy, ...limits }))).toMatch(
      /javascript: URLs are not fetched/,
    );
    expect(await refusal(fetchUrl('not a url', { policy, ...limits }))).toBe(
      '"not a url" is not a valid URL (give a full http:// or https:// address)',
    );
  });

  it('checks every redirect hop: an allowed host redirecting to metadata or to loopback is refused there', async () => {
    const redirector = await localServer((req, res) => {
      const to =
        req.url === '/meta' ? 'http://169.254.169.254/latest/meta-data/' : `http://127.0.0.1:${target.port}/`;
      res.writeHead(302, { location: to }).end();
    });
    try {
      // The redirector is allowed by name only; its address is reached through that name.
      const resolve = tableResolver({ 'intranet.test': ['127.0.0.1'] });
      const policy = { allow: ['intranet.test'], resolve };
      const base = `http://intranet.test:${redirector.port}`;
      expect(await refusal(fetchUrl(`${base}/meta`, { policy, ...limits }))).toMatch(
        /^http:\/\/169\.254\.169\.254\/latest\/meta-data\/: 169\.254\.169\.254 is a link-local address/,
      );
      expect(await refusal(fetchUrl(`${base}/loop`, { policy, ...limits }))).toMatch(
        /127\.0\.0\.1 is a loopback address/,
      );
      expect(redirector.requests.map((r) => r.path)).toEqual(['/meta', '/loop']);
      expect(target.connections).toBe(0);
    } finally {
      await redirector.close();
    }
  });

  it('connects to the address it checked: the name is resolved once, not again at connect time', async () => {
    let calls = 0;
    // A rebinding resolver: allowed loopback first, a different address (nothing listens there) after.
    const resolve = async () => [{ address: calls++ === 0 ? '127.0.0.1' : '127.0.0.2', family: 4 as const }];
    const policy = { allow: ['pinned.test'], resolve };
    const outcome = await fetchUrl(`http://pinned.test:${target.port}/`, { policy, ...limits });
    expect(outcome.kind === 'response' && outcome.response.body.toString()).toBe('secret');
    expect(calls).toBe(1);
  });

  it('reaches an allowed address, and stops after 5 redirects', async () => {
    const loop = await localServer((req, res) => {
      const n = Number(req.url?.slice(1)) || 0;
      res.writeHead(301, { location: `/${n + 1}` }).end();
    });
    try {
      const policy = { allow: ['127.0.0.0/8'] };
      expect(await refusal(fetchUrl(`${loop.url}/0`, { policy, ...limits }))).toMatch(
        /more than 5 redirects; stopped at .*\/5$/,
      );
      expect(loop.requests).toHaveLength(6);
      const outcome = await fetchUrl(`${target.url}/`, { policy, ...limits });
      expect(outcome.kind === 'response' && outcome.response.status).toBe(200);
    } finally {
      await loop.close();
    }
  });
});
