import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { callerRefusal } from './http_guard.js';
import { HttpSessions, type SessionEnd, type SessionLimits } from './http_sessions.js';
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
 * How long a client may take to send a request's headers, and the whole request: a slow client
 * (slow loris) is cut off with 408 instead of holding a connection for Node's 60 s and 300 s,
 * as on the trigger endpoint. A request is received once its body is in, so neither bound cuts a
 * long answer: an SSE stream (a GET, or a POST answered as a stream) lasts as long as it needs.
 */
const REQUEST_TIMEOUT_MS = 10_000;

export interface HttpServeOptions {
  port: number;
  version: string;
  token?: string;
  /** Overrides settings `mcp.sessionIdleTimeout` / `mcp.maxSessions`. */
  limits?: Partial<SessionLimits>;
  /** A session was closed for being idle, or to make room for a new one. */
  onSessionEnd?: (id: string, why: SessionEnd) => void;
  /** One line per refused caller (the command writes them to stderr). */
  log?: (line: string) => void;
  /** Overrides the 10 s bound on receiving a request's headers and the whole request. */
  requestTimeoutMs?: number;
}

type HttpRuntime = ServedRuntime & {
  readonly settings: {
    readonly mcp: { sessionIdleTimeoutMs: number; maxSessions: number; allowedOrigins: readonly string[] };
  };
};

/**
 * Serves lathe's tools over streamable HTTP at `http://127.0.0.1:PORT/mcp`, one MCP session per
 * client, every request checked for its `Host` and `Origin` (http_guard.ts), then against a
 * bearer token (`LATHE_MCP_TOKEN`, or a random one). Only the loopback interface listens.
 * Sessions expire when idle and their number is capped (settings `mcp.sessionIdleTimeout`,
 * `mcp.maxSessions`).
 */
export async function serveHttp(runtime: HttpRuntime, options: HttpServeOptions): Promise<HttpServing> {
  const token = options.token || randomBytes(24).toString('base64url');
  const limits: SessionLimits = {
    idleTimeoutMs: runtime.settings.mcp.sessionIdleTimeoutMs,
    maxSessions: runtime.settings.mcp.maxSessions,
    ...options.limits,
  };
  const sessions = new HttpSessions<StreamableHTTPServerTransport>(limits, options.onSessionEnd);
  const answer = await sessionAnswerer(runtime, options.version, sessions, limits);
  let port = options.port;
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const refused = callerRefusal(req, { port, allowedOrigins: runtime.settings.mcp.allowedOrigins });
    if (refused) {
      options.log?.(refused);
      return reply(res, 403, `Forbidden: ${refused}`);
    }
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path !== '/mcp') return reply(res, 404, 'Not found: the MCP endpoint is /mcp');
    const auth = req.headers.authorization ?? '';
    if (!auth.startsWith('Bearer ') || !sameSecret(auth.slice('Bearer '.length).trim(), token)) {
      return reply(res, 401, 'Unauthorized: send Authorization: Bearer <token>', {
        'www-authenticate': 'Bearer realm="lathe"',
      });
    }
    return answer(req, res);
  };
  const timeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const http = createServer(
    {
      headersTimeout: timeout,
      requestTimeout: timeout,
      // How often Node looks for connections past those bounds (its default is every 30 s).
      connectionsCheckingInterval: Math.max(10, Math.min(1_000, timeout / 4)),
    },
    (req, res) => {
      handle(req, res).catch((error) => {
        if (!res.headersSent) reply(res, 500, `Internal error: ${(error as Error).message}`);
        else res.end();
      });
    },
  );
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, '127.0.0.1', () => resolve());
  });
  port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    token,
    async close() {
      await sessions.closeAll();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** Answers an authorised request: in its session, or as the initialize that starts one. */
async function sessionAnswerer(
  runtime: ServedRuntime,
  version: string,
  sessions: HttpSessions<StreamableHTTPServerTransport>,
  limits: SessionLimits,
) {
  const [{ StreamableHTTPServerTransport }, { isInitializeRequest }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  /** The session is busy until this response is done (an SSE answer outlives handleRequest). */
  const busyUntilAnswered = (id: string, res: ServerResponse) => {
    sessions.begin(id);
    res.once('close', () => sessions.end(id));
  };
  return async (req: IncomingMessage, res: ServerResponse) => {
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    // An unknown id is a session that ended (expired, closed): 404 tells the client to start anew.
    const noSession = () =>
      sessionId === undefined
        ? reply(res, 400, 'Bad request: no session id (start with an initialize request)')
        : reply(res, 404, 'Session not found: it expired or was closed; start a new one');
    if (req.method !== 'POST') {
      if (!existing) return noSession();
      return existing.handleRequest(req, res);
    }
    let body: unknown;
    try {
      body = await readBody(req);
    } catch (error) {
      return reply(res, 400, `Bad request: ${(error as Error).message}`);
    }
    if (existing) {
      busyUntilAnswered(sessionId as string, res);
      return existing.handleRequest(req, res, body);
    }
    if (sessionId !== undefined || !isInitializeRequest(body)) return noSession();
    if (!(await sessions.makeRoom())) {
      return reply(
        res,
        503,
        `Too many sessions: all ${limits.maxSessions} are answering requests; retry later or close one (DELETE /mcp)`,
        { 'retry-after': '5' },
      );
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.add(id, transport);
        busyUntilAnswered(id, res);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.remove(transport.sessionId);
    };
    const server = await createLatheServer(runtime, version);
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };
}
