import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PinningProxy } from '../../src/browser/pinning_proxy.js';
import type { Resolver } from '../../src/web/address_policy.js';
import { tableResolver } from '../web/local_server.js';
import { type PageServer, servePages } from './pages.js';

/** A GET of an absolute http URL through the proxy: status and body. */
function getThrough(proxy: string, url: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(proxy);
  return new Promise((resolve, reject) => {
    request({ host: hostname, port, path: url, headers: { host: new URL(url).host } }, (res) => {
      let body = '';
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

/** `CONNECT target` through the proxy, then a plain GET inside the tunnel: the first line of each answer. */
function tunnelThrough(proxy: string, target: string): Promise<{ connect: string; inner?: string }> {
  const { hostname, port } = new URL(proxy);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () =>
      socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`),
    );
    let seen = '';
    let connected: string | undefined;
    socket.on('data', (chunk) => {
      seen += chunk;
      if (connected === undefined && seen.includes('\r\n\r\n')) {
        connected = seen.split('\r\n')[0];
        seen = '';
        if (!connected.includes(' 200 ')) return resolve({ connect: connected });
        socket.write(`GET / HTTP/1.1\r\nHost: ${target}\r\nConnection: close\r\n\r\n`);
      }
    });
    socket.on('end', () =>
      resolve({ connect: connected ?? seen.split('\r\n')[0], inner: seen.split('\r\n')[0] }),
    );
    socket.on('error', reject);
  });
}

describe('the browser’s pinning proxy', () => {
  let site: PageServer;
  let port: string;
  const proxies: PinningProxy[] = [];
  const refused: string[] = [];
  const start = async (allow: string[], resolve: Resolver) => {
    const proxy = await PinningProxy.start({ allow, resolve }, (url, reason) =>
      refused.push(`${url} ${reason}`),
    );
    proxies.push(proxy);
    return proxy.url;
  };
  beforeAll(async () => {
    site = await servePages({ '/': '<h1>local</h1>' });
    port = new URL(site.url).port;
  });
  afterEach(async () => {
    await Promise.all(proxies.splice(0).map((p) => p.close()));
    refused.length = 0;
  });
  afterAll(() => site.close());

  it('connects to the address it checked, whatever the name would resolve to elsewhere', async () => {
    // `pinned.test` resolves nowhere but in lathe's resolver: reaching the page proves the
    // connection went to the address lathe judged.
    const proxy = await start(['127.0.0.1'], tableResolver({ 'pinned.test': ['127.0.0.1'] }));
    const got = await getThrough(proxy, `http://pinned.test:${port}/`);
    expect(got).toEqual({ status: 200, body: '<h1>local</h1>' });
    expect(site.requests.at(-1)).toMatchObject({ path: '/', host: `pinned.test:${port}` });
    const tunnel = await tunnelThrough(proxy, `pinned.test:${port}`);
    expect(tunnel.connect).toContain(' 200 ');
    expect(tunnel.inner).toContain(' 200 ');
  });

  it('refuses a name that resolves to a refused address when it connects, and never connects', async () => {
    const before = site.requests.length;
    // Whatever an earlier check saw (DNS rebinding), the proxy's own check is the one the
    // connection follows.
    const proxy = await start([], tableResolver({ 'rebind.test': ['127.0.0.1'] }));
    const got = await getThrough(proxy, `http://rebind.test:${port}/`);
    expect(got.status).toBe(403);
    expect(got.body).toMatch(/rebind\.test resolves to 127\.0\.0\.1, which is a loopback address; refused/);
    const tunnel = await tunnelThrough(proxy, `rebind.test:${port}`);
    expect(tunnel.connect).toContain(' 403 ');
    expect(site.requests.length).toBe(before);
    expect(refused).toHaveLength(2);
  });
  it('refuses IPv6 spellings that carry a refused IPv4 address, over http and CONNECT', async () => {
    const before = site.requests.length;
    const proxy = await start([], tableResolver({}));
    const got = await getThrough(proxy, `http://[::127.0.0.1]:${port}/`);
    expect(got.status).toBe(403);
    expect(got.body).toMatch(
      /::7f00:1 is an IPv4-compatible address carrying 127\.0\.0\.1, a loopback address/,
    );
    const tunnel = await tunnelThrough(proxy, `[64:ff9b::a9fe:a9fe]:443`);
    expect(tunnel.connect).toContain(' 403 ');
    expect(site.requests.length).toBe(before);
    expect(refused).toEqual([
      expect.stringContaining('IPv4-compatible address carrying 127.0.0.1'),
      expect.stringContaining('NAT64 address carrying 169.254.169.254'),
    ]);
  });
});
