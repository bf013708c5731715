import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MODEL_TIMEOUTS } from '../../src/config/timeouts.js';
import { modelFetch } from '../../src/provider/create_model.js';
import { forwardFrom, freePort } from '../support/ports.js';

// Every model request goes out on the fetch modelFetch makes: Node's own, with timeouts and
// provider keys kept on their origin. These are the promises model providers rely on.

type Route = (req: IncomingMessage, body: string, res: ServerResponse) => void;

/** A real HTTP server on 127.0.0.1 answering by path; `seen` holds each request's method, headers and body. */
async function serve(routes: Record<string, Route>) {
  const seen: Array<{ path: string; method: string; headers: IncomingMessage['headers']; body: string }> = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', () => {
      const path = req.url ?? '/';
      seen.push({ path, method: req.method ?? '', headers: req.headers, body });
      (routes[path] ?? ((_q, _b, r) => r.writeHead(404).end('no such route')))(req, body, res);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise((done) => server.close(done)) };
}

let main: Awaited<ReturnType<typeof serve>>;
let other: Awaited<ReturnType<typeof serve>>;
/** Ends a body the test holds open (the stalled stream). */
let release: (() => void) | undefined;

beforeAll(async () => {
  other = await serve({ '/landing': (_q, _b, res) => res.end('landed') });
  main = await serve({
    '/json': (_q, _b, res) =>
      res.writeHead(201, 'Made', { 'content-type': 'application/json' }).end('{"a":1}'),
    '/echo': (req, body, res) => res.end(JSON.stringify({ method: req.method, headers: req.headers, body })),
    '/gzip': (_q, _b, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('zipped text')),
    '/br': (_q, _b, res) =>
      res.writeHead(200, { 'content-encoding': 'br' }).end(brotliCompressSync('brotli text')),
    '/empty': (_q, _b, res) => res.writeHead(204).end(),
    '/fail': (_q, _b, res) => res.writeHead(529, 'Overloaded').end('{"error":"busy"}'),
    '/repeat': (_q, _b, res) =>
      res
        .writeHead(200, [
          ['x-many', 'one'],
          ['x-many', 'two'],
          ['X-Case', 'v'],
        ])
        .end(),
    '/see-other': (_q, _b, res) => res.writeHead(303, { location: '/echo' }).end(),
    '/temporary': (_q, _b, res) => res.writeHead(307, { location: '/echo' }).end(),
    '/elsewhere': (_q, _b, res) => res.writeHead(302, { location: `${other.url}/landing` }).end(),
    '/then-elsewhere': (_q, _b, res) => res.writeHead(308, { location: '/elsewhere' }).end(),
    '/loop': (_q, _b, res) => res.writeHead(302, { location: '/loop' }).end(),
    '/to-ftp': (_q, _b, res) => res.writeHead(302, { location: 'ftp://127.0.0.1/file' }).end(),
    '/stalls': (_q, _b, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
      release = () => res.end();
    },
  });
});

afterAll(async () => {
  release?.();
  await main.close();
  await other.close();
});

const send = modelFetch(DEFAULT_MODEL_TIMEOUTS);
/** The key headers of the providers, with Authorization and one header that is no credential. */
const KEYED = { 'x-api-key': 'secret', 'x-goog-api-key': 'secret', 'api-key': 'secret' };

describe('the fetch of model requests', () => {
  it('answers as fetch does: status, text, headers, JSON', async () => {
    const response = await send(`${main.url}/json`);
    expect([response.status, response.statusText, response.ok]).toEqual([201, 'Made', true]);
    expect(response.headers.get('Content-Type')).toBe('application/json');
    expect(await response.json()).toEqual({ a: 1 });
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(/already been read|unusable/);
  });

  it('sends the method, headers and body it is given, with a content length', async () => {
    const response = await send(`${main.url}/echo`, {
      method: 'post',
      headers: { 'X-Api-Key': 'k', 'content-type': 'application/json' },
      body: '{"hi":"é"}',
    });
    const echoed = (await response.json()) as {
      method: string;
      headers: Record<string, string>;
      body: string;
    };
    expect(echoed.method).toBe('POST');
    expect(echoed.body).toBe('{"hi":"é"}');
    expect(echoed.headers['x-api-key']).toBe('k');
    expect(echoed.headers['content-length']).toBe(String(Buffer.byteLength('{"hi":"é"}')));
    expect(echoed.headers['accept-encoding']).toMatch(/gzip/);
  });

  it('decompresses gzip and brotli bodies', async () => {
    expect(await (await send(`${main.url}/gzip`)).text()).toBe('zipped text');
    expect(await (await send(`${main.url}/br`)).text()).toBe('brotli text');
  });

  it('gives no body for a 204 and the body of an error status', async () => {
    const empty = await send(`${main.url}/empty`);
    expect([empty.status, empty.body]).toEqual([204, null]);
    const failed = await send(`${main.url}/fail`);
    expect([failed.status, failed.ok, failed.statusText]).toEqual([529, false, 'Overloaded']);
    expect(await failed.text()).toBe('{"error":"busy"}');
  });

  it('joins a repeated header and lists names in lower case, in order', async () => {
    const response = await send(`${main.url}/repeat`);
    expect(response.headers.get('x-many')).toBe('one, two');
    const names = [...response.headers].map(([name]) => name);
    expect(names).toEqual([...names].sort());
    expect(names).toContain('x-case');
  });

  it('follows redirects, with a key or without: 303 turns a POST into a GET, 307 keeps it', async () => {
    for (const headers of [{}, KEYED]) {
      const seeOther = await send(`${main.url}/see-other`, { method: 'POST', body: 'payload', headers });
      expect(await seeOther.json()).toMatchObject({ method: 'GET', body: '' });
      const temporary = await send(`${main.url}/temporary`, { method: 'POST', body: 'payload', headers });
      expect(await temporary.json()).toMatchObject({ method: 'POST', body: 'payload', headers });
    }
  });

  it('never carries a credential or a provider key to another origin on a redirect', async () => {
    for (const start of ['/elsewhere', '/then-elsewhere']) {
      const response = await send(`${main.url}${start}`, {
        headers: { authorization: 'Bearer secret', cookie: 'a=b', ...KEYED, 'x-kept': 'yes' },
      });
      expect(await response.text()).toBe('landed');
      const landed = other.seen.at(-1)?.headers ?? {};
      for (const name of ['authorization', 'cookie', ...Object.keys(KEYED)])
        expect(landed[name], `${start}: ${name}`).toBeUndefined();
      expect(landed['x-kept']).toBe('yes');
    }
    // On the way, while the redirects stayed on the origin, the key went with them.
    expect(main.seen.filter((r) => r.path === '/elsewhere').at(-1)?.headers['x-api-key']).toBe('secret');
  });

  it('stops an endless redirect, and returns the redirect itself when asked to', async () => {
    for (const headers of [{}, KEYED]) {
      const loop = send(`${main.url}/loop`, { headers });
      await expect(loop).rejects.toThrow('fetch failed');
      await expect(loop.catch((e: Error) => String(e.cause))).resolves.toMatch(/redirect/);
      const manual = await send(`${main.url}/loop`, { redirect: 'manual', headers });
      expect([manual.status, manual.headers.get('location')]).toEqual([302, '/loop']);
      await expect(send(`${main.url}/loop`, { redirect: 'error', headers })).rejects.toThrow('fetch failed');
      await expect(send(`${main.url}/to-ftp`, { headers })).rejects.toThrow('fetch failed');
    }
  });

  it('fails a refused connection as fetch does, with the cause the provider SDK retries on', async () => {
    const failure = await send(`http://127.0.0.1:${await freePort()}/`).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as Error).message).toBe('fetch failed');
    expect(((failure as Error).cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
  });

  it("checks an https endpoint's certificate: a self-signed one is refused", async () => {
    const tls = await forwardFrom([0], Number(new URL(main.url).port), { tls: true });
    try {
      const failure = await send(`https://127.0.0.1:${tls.port}/json`).catch((e: unknown) => e);
      expect((failure as Error).message).toBe('fetch failed');
      expect(((failure as Error).cause as NodeJS.ErrnoException).code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    } finally {
      await tls.close();
    }
  });

  it('streams a body as it comes, and an abort ends the stream with its reason', async () => {
    const controller = new AbortController();
    const response = await send(`${main.url}/stalls`, { signal: controller.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: first\n\n');
    const reason = new Error('stopped by the user');
    const next = reader.read();
    controller.abort(reason);
    await expect(next).rejects.toBe(reason);
  });

  it('rejects with the reason of a signal aborted before it starts', async () => {
    const reason = new Error('too late');
    await expect(send(`${main.url}/json`, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
  });
});
