import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createLatheServer, type ServedRuntime } from './server.js';

/** Request bodies larger than this are refused (a tool call's arguments are small). */
const MAX_BODY = 8 * 1024 * 1024;

export interface HttpServing {
  url: string;
  token: string;
  close(): Promise<void>;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function reply(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new Error('request body too large');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : JSON.parse(text);
}

/**
 * Serves lathe's tools over streamable HTTP at `http://127.0.0.1:PORT/mcp`, one MCP session per
 * client, every request checked against a bearer token (`LATHE_MCP_TOKEN`, or a random one).
 * Only the loopback interface listens.
 */
export async function serveHttp(
  runtime: ServedRuntime,
  options: { port: number; version: string; token?: string },
): Promise<HttpServing> {
  const [{ StreamableHTTPServerTransport }, { isInitializeRequest }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  const token = options.token || randomBytes(24).toString('base64url');
  const sessions = new Map<string, StreamableHTTPServerTransport>();

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path !== '/mcp') return reply(res, 404, 'Not found: the MCP endpoint is /mcp');
    const auth = req.headers.authorization ?? '';
    if (!auth.startsWith('Bearer ') || !sameSecret(auth.slice('Bearer '.length).trim(), token)) {
      return reply(res, 401, 'Unauthorized: send Authorization: Bearer <token>', {
        'www-authenticate': 'Bearer realm="lathe"',
      });
    }
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (req.method !== 'POST') {
      if (!existing) return reply(res, 400, 'Bad request: no valid session id');
      return existing.handleRequest(req, res);
    }
    let body: unknown;
    try {
      body = await readBody(req);
    } catch (error) {
      return reply(res, 400, `Bad request: ${(error as Error).message}`);
    }
    if (existing) return existing.handleRequest(req, res, body);
    if (sessionId !== undefined || !isInitializeRequest(body)) {
      return reply(res, sessionId !== undefined ? 404 : 400, 'Bad request: no valid session id');
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    const server = await createLatheServer(runtime, options.version);
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent) reply(res, 500, `Internal error: ${(error as Error).message}`);
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, '127.0.0.1', () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    token,
    async close() {
      await Promise.all([...sessions.values()].map((t) => t.close().catch(() => {})));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
