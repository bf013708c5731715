import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local page server on 127.0.0.1 (or another loopback address) that records every request it gets. */
export interface PageServer {
  url: string;
  requests: Array<{ method: string; path: string; host: string; body: string }>;
  close(): Promise<void>;
}

export type PageHandler = (
  request: IncomingMessage,
  body: string,
) => { status?: number; type?: string; body: string };

export async function servePages(
  pages: Record<string, string | PageHandler>,
  host = '127.0.0.1',
): Promise<PageServer> {
  const requests: PageServer['requests'] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const path = (request.url ?? '/').split('?')[0];
      requests.push({ method: request.method ?? 'GET', path, host: request.headers.host ?? '', body });
      const page = pages[path];
      if (page === undefined) {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      const answer = typeof page === 'string' ? { body: page } : page(request, body);
      response
        .writeHead(answer.status ?? 200, { 'content-type': answer.type ?? 'text/html; charset=utf-8' })
        .end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A page of `count` rows, each a link, a text and a button: about four nodes a row. */
export function bigPage(rows: number): string {
  const body = Array.from(
    { length: rows },
    (_, i) => `<div><a href="#r${i}">link ${i}</a> <span>text ${i}</span><button>b${i}</button></div>`,
  ).join('');
  return `<!doctype html><title>Big</title><main>${body}</main>`;
}
