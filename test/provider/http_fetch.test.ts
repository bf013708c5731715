import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpFetch } from '../../src/provider/http_fetch.js';
import { PlainHeaders } from '../../src/provider/plain_headers.js';
import { forwardFrom, freePort } from '../support/ports.js';

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

describe('httpFetch', () => {
  it('answers as fetch does: status, text, headers, JSON', async () => {
    const response = await httpFetch(`${main.url}/json`);
    expect([response.status, response.statusText, response.ok]).toEqual([201, 'Made', true]);
    expect(response.headers.get('Content-Type')).toBe('application/json');
    expect(await response.json()).toEqual({ a: 1 });
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(/already been read/);
  });

  it('sends the method, headers and body it is given, with a content length', async () => {
    const response = await httpFetch(`${main.url}/echo`, {
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
    expect(echoed.headers['accept-encoding']).toBe('gzip, deflate, br');
  });

  it('decompresses gzip and brotli bodies', async () => {
    expect(await (await httpFetch(`${main.url}/gzip`)).text()).toBe('zipped text');
    expect(await (await httpFetch(`${main.url}/br`)).text()).toBe('brotli text');
  });

  it('gives no body for a 204 and the body of an error status', async () => {
    const empty = await httpFetch(`${main.url}/empty`);
    expect([empty.status, empty.body]).toEqual([204, null]);
    const failed = await httpFetch(`${main.url}/fail`);
    expect([failed.status, failed.ok, failed.statusText]).toEqual([529, false, 'Overloaded']);
    expect(await failed.text()).toBe('{"error":"busy"}');
  });

  it('joins a repeated header and lists names in lower case, in order', async () => {
    const response = await httpFetch(`${main.url}/repeat`);
    expect(response.headers.get('x-many')).toBe('one, two');
    const names = [...response.headers].map(([name]) => name);
    expect(names).toEqual([...names].sort());
    expect(names).toContain('x-case');
  });

  it('follows redirects: 303 turns a POST into a GET, 307 keeps it', async () => {
    const seeOther = await httpFetch(`${main.url}/see-other`, { method: 'POST', body: 'payload' });
    expect(seeOther.redirected).toBe(true);
    expect(seeOther.url).toBe(`${main.url}/echo`);
    expect(await seeOther.json()).toMatchObject({ method: 'GET', body: '' });
    const temporary = await httpFetch(`${main.url}/temporary`, { method: 'POST', body: 'payload' });
    expect(await temporary.json()).toMatchObject({ method: 'POST', body: 'payload' });
  });

  it('drops credentials on a redirect to another origin', async () => {
    const response = await httpFetch(`${main.url}/elsewhere`, {
      headers: { authorization: 'Bearer secret', 'x-api-key': 'secret', 'x-kept': 'yes' },
    });
    expect(await response.text()).toBe('landed');
    const landed = other.seen.at(-1);
    expect(landed?.headers.authorization).toBeUndefined();
    expect(landed?.headers['x-api-key']).toBeUndefined();
    expect(landed?.headers['x-kept']).toBe('yes');
  });

  it('stops an endless redirect, and returns the redirect itself when asked to', async () => {
    const loop = httpFetch(`${main.url}/loop`);
    await expect(loop).rejects.toThrow('fetch failed');
    await expect(loop.catch((e: Error) => String(e.cause))).resolves.toMatch(/more than 20 redirects/);
    const manual = await httpFetch(`${main.url}/loop`, { redirect: 'manual' });
    expect([manual.status, manual.headers.get('location')]).toEqual([302, '/loop']);
    await expect(httpFetch(`${main.url}/loop`, { redirect: 'error' })).rejects.toThrow('fetch failed');
    await expect(httpFetch(`${main.url}/to-ftp`)).rejects.toThrow('fetch failed');
  });

  it('fails a refused connection as fetch does, with the cause the provider SDK retries on', async () => {
    const failure = await httpFetch(`http://127.0.0.1:${await freePort()}/`).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as Error).message).toBe('fetch failed');
    expect(((failure as Error).cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
  });

  it("checks an https endpoint's certificate: a self-signed one is refused", async () => {
    const tls = await forwardFrom([0], Number(new URL(main.url).port), { tls: true });
    try {
      const failure = await httpFetch(`https://127.0.0.1:${tls.port}/json`).catch((e: unknown) => e);
      expect((failure as Error).message).toBe('fetch failed');
      expect(((failure as Error).cause as NodeJS.ErrnoException).code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    } finally {
      await tls.close();
    }
  });

  it('streams a body as it comes, and an abort ends the stream with its reason', async () => {
    const controller = new AbortController();
    const response = await httpFetch(`${main.url}/stalls`, { signal: controller.signal });
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
    await expect(httpFetch(`${main.url}/json`, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
  });
});

describe('PlainHeaders', () => {
  it('reads names in any case, appends repeated values and iterates in name order', () => {
    const headers = new PlainHeaders({ 'X-B': '1', a: ' 2 ' });
    headers.append('x-b', '3');
    expect(headers.get('x-b')).toBe('1, 3');
    expect(headers.get('A')).toBe('2');
    expect(headers.get('missing')).toBeNull();
    expect([...headers]).toEqual([
      ['a', '2'],
      ['x-b', '1, 3'],
    ]);
    headers.delete('A');
    expect(Object.fromEntries(headers.entries())).toEqual({ 'x-b': '1, 3' });
  });

  it('takes pairs and Node’s own Headers, and counts both as headers', () => {
    const real = new Headers({ 'User-Agent': 'x' });
    expect(new PlainHeaders(real).get('user-agent')).toBe('x');
    expect(new PlainHeaders([['k', 'v']]).get('K')).toBe('v');
    expect(real instanceof PlainHeaders).toBe(true);
    expect({ k: 'v' } instanceof PlainHeaders).toBe(false);
  });
});
