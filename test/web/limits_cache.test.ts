import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fetchUrl } from '../../src/web/fetch_url.js';
import { HttpCache, MAX_CACHE_MS } from '../../src/web/http_cache.js';
import { WebError } from '../../src/web/web_error.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { type LocalServer, localServer } from './local_server.js';

const policy = { allow: ['127.0.0.1'] };

describe('web_fetch limits', () => {
  it('stops a 50 MB chunked body at 10 MB', async () => {
    let sent = 0;
    let stopped!: () => void;
    const closed = new Promise<void>((resolve) => {
      stopped = resolve;
    });
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const server = await localServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.on('close', () => stopped());
      const pump = () => {
        while (sent < 50 * 1024 * 1024 && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    try {
      const error = await fetchUrl(`${server.url}/big`, {
        policy,
        connectTimeoutMs: 5_000,
        totalTimeoutMs: 60_000,
        maxBytes: 10 * 1024 * 1024,
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WebError);
      expect((error as WebError).message).toMatch(
        /larger than 10 MB \(settings web\.maxBytes\); stopped reading$/,
      );
      await closed;
      expect(sent).toBeLessThan(50 * 1024 * 1024);
    } finally {
      await server.close();
    }
  });

  it('ends a one-byte-per-second answer at the total timeout, with the setting named', async () => {
    const server = await localServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => res.write('x'), 1_000);
      res.on('close', () => clearInterval(timer));
    });
    try {
      const error = await fetchUrl(`${server.url}/slow`, {
        policy,
        connectTimeoutMs: 5_000,
        totalTimeoutMs: 1_500,
        maxBytes: 1024,
      }).catch((e: unknown) => e);
      expect((error as WebError).message).toMatch(
        /no complete answer within 1\.5 s \(settings web\.timeouts\.total\)$/,
      );
    } finally {
      await server.close();
    }
  });
});

describe('web_fetch cache', () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await localServer((req, res) => {
      if (req.headers['if-none-match'] === '"v1"') return void res.writeHead(304, { etag: '"v1"' }).end();
      res
        .writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'max-age=3600', etag: '"v1"' })
        .end('cached body');
    });
  });
  afterAll(() => server.close());
  afterEach(() => vi.useRealTimers());

  const options = (cache: HttpCache) => ({
    policy,
    connectTimeoutMs: 5_000,
    totalTimeoutMs: 10_000,
    maxBytes: 1024,
    cache,
  });

  it('serves a second fetch within 15 minutes without a request, then revalidates with one 304', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const cache = new HttpCache(undefined);
    const url = `${server.url}/page`;
    const first = await fetchUrl(url, options(cache));
    expect(first.kind === 'response' && first.cache).toBeUndefined();
    const second = await fetchUrl(url, options(cache));
    expect(second).toMatchObject({ kind: 'response', cache: 'fresh' });
    expect(server.requests.filter((r) => r.path === '/page')).toHaveLength(1);

    vi.setSystemTime(Date.now() + MAX_CACHE_MS + 1_000);
    const third = await fetchUrl(url, options(cache));
    expect(third).toMatchObject({ kind: 'response', cache: 'revalidated' });
    expect(third.kind === 'response' && third.response.body.toString()).toBe('cached body');
    const asked = server.requests.filter((r) => r.path === '/page');
    expect(asked).toHaveLength(2);
    expect(asked[1].headers['if-none-match']).toBe('"v1"');
  });

  it('keeps pages under the session folder, where a new cache finds them', async () => {
    const folder = join(tempDir(), 'web-cache');
    const url = `${server.url}/disk`;
    await fetchUrl(url, options(new HttpCache(folder)));
    const again = await fetchUrl(url, options(new HttpCache(folder)));
    expect(again).toMatchObject({ kind: 'response', cache: 'fresh' });
    expect(server.requests.filter((r) => r.path === '/disk')).toHaveLength(1);
  });
});
