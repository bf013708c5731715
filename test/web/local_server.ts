import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_WEB_SETTINGS, type WebSettings } from '../../src/config/web_settings.js';
import type { WebAccess } from '../../src/tool/context/web.js';
import type { Resolver } from '../../src/web/address_policy.js';
import { HttpCache } from '../../src/web/http_cache.js';

/** A node:http server on 127.0.0.1 that counts connections and records requests. */
export interface LocalServer {
  url: string;
  port: number;
  /** TCP connections accepted: zero means nothing reached it. */
  connections: number;
  requests: Array<{ path: string; headers: IncomingMessage['headers'] }>;
  close(): Promise<void>;
}

export async function localServer(
  handler: (req: IncomingMessage, res: ServerResponse) => unknown,
): Promise<LocalServer> {
  const server = createServer((req, res) => {
    state.requests.push({ path: req.url ?? '/', headers: req.headers });
    Promise.resolve(handler(req, res)).catch(() => res.destroy());
  });
  server.on('connection', () => {
    state.connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const state: LocalServer = {
    url: `http://127.0.0.1:${port}`,
    port,
    connections: 0,
    requests: [],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return state;
}

/** A resolver from a fixed table; a name not in it does not resolve. Counts its lookups. */
export function tableResolver(table: Record<string, string[]>): Resolver & { lookups: string[] } {
  const lookups: string[] = [];
  const resolve = async (host: string) => {
    lookups.push(host);
    const addresses = table[host];
    if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({
      address,
      family: address.includes(':') ? (6 as const) : (4 as const),
    }));
  };
  return Object.assign(resolve, { lookups });
}

/** Web services for a tool context: the given settings over the defaults, a memory cache. */
export function webAccess(
  settings: Partial<WebSettings> = {},
  resolve?: Resolver,
  cacheFolder?: string,
): WebAccess {
  return {
    settings: { ...DEFAULT_WEB_SETTINGS, ...settings },
    cache: new HttpCache(cacheFolder),
    resolve,
    env: {},
  };
}
