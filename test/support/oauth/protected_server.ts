import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import {
  getOAuthProtectedResourceMetadataUrl,
  mcpAuthRouter,
} from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { MemoryOAuthProvider } from './memory_provider.js';

/** Ways the authorization server can misbehave, to see lathe refuse them. */
export interface Misbehaviour {
  /** The authorization-server metadata never answers. */
  hangMetadata?: boolean;
  /** The metadata names another issuer than the one it was fetched for. */
  wrongIssuer?: boolean;
  /** The token endpoint answers with an HTML page. */
  htmlTokens?: boolean;
  /** No dynamic registration: only pre-registered clients. */
  noRegistration?: boolean;
}

export interface ProtectedServer {
  /** The MCP endpoint lathe connects to. */
  url: string;
  issuer: string;
  provider: MemoryOAuthProvider;
  /** The query of every authorization request the browser made. */
  authorizeQueries: URLSearchParams[];
  misbehave: Misbehaviour;
  stop(): Promise<void>;
}

/** What the handlers here use of express's request and answer (lathe does not carry its types). */
interface Req {
  originalUrl: string;
  body?: unknown;
  auth?: AuthInfo;
}
interface Res {
  status(code: number): Res;
  set(name: string, value: string): Res;
  type(type: string): Res;
  json(body: unknown): void;
  send(body: string): void;
  end(): void;
  on(event: 'close', listener: () => void): void;
}
type Next = () => void;

/** A streamable-HTTP MCP server whose tools are reached with a token of its own authorization server. */
function mcpServer(auth: AuthInfo | undefined): McpServer {
  const server = new McpServer({ name: 'protected', version: '1.0.0' });
  server.registerTool('whoami', { description: 'the caller', inputSchema: {} }, async () => ({
    content: [{ type: 'text', text: `client ${auth?.clientId} with scopes [${auth?.scopes.join(' ')}]` }],
  }));
  server.registerTool(
    'admin',
    { description: 'needs the write scope', inputSchema: { what: z.string().optional() } },
    async () => ({ content: [{ type: 'text', text: 'admin done' }] }),
  );
  return server;
}

/**
 * Starts, on 127.0.0.1 and a free port, an authorization server built with the SDK's own
 * handlers (metadata, registration, authorize, token with PKCE checked) beside the MCP
 * server it protects (bearer tokens checked; `admin` needs the `write` scope).
 */
export async function startProtectedServer(misbehave: Misbehaviour = {}): Promise<ProtectedServer> {
  // The SDK's app: JSON bodies parsed, the Host header checked against 127.0.0.1.
  const app = createMcpExpressApp();
  const listener: Server = await new Promise((resolve) => {
    const s: Server = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const base = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  const mcpUrl = new URL('/mcp', base);
  const provider = new MemoryOAuthProvider();
  const authorizeQueries: URLSearchParams[] = [];
  app.set('trust proxy', false);
  misbehaviourRoutes(app, base, misbehave);
  app.get('/authorize', (req: Req, _res: Res, next: Next) => {
    authorizeQueries.push(new URL(req.originalUrl, base).searchParams);
    next();
  });
  app.use(
    mcpAuthRouter({
      provider,
      issuerUrl: new URL(base),
      resourceServerUrl: mcpUrl,
      // What a login asks for by default; `write` is granted only to a step-up that asks for it.
      scopesSupported: ['read'],
      resourceName: 'protected test server',
    }),
  );
  const bearer = requireBearerAuth({
    verifier: provider,
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl),
  });
  app.post('/mcp', bearer, async (req: Req, res: Res) => {
    const auth = req.auth;
    const body = req.body as { method?: string; params?: { name?: string } };
    if (body.method === 'tools/call' && body.params?.name === 'admin' && !auth?.scopes.includes('write')) {
      res
        .status(403)
        .set(
          'WWW-Authenticate',
          `Bearer error="insufficient_scope", scope="read write", resource_metadata="${getOAuthProtectedResourceMetadataUrl(mcpUrl)}"`,
        )
        .json({ error: 'insufficient_scope' });
      return;
    }
    const server = mcpServer(auth);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => void server.close());
    await server.connect(transport);
    await transport.handleRequest(
      req as unknown as IncomingMessage,
      res as unknown as ServerResponse,
      req.body,
    );
  });
  return {
    url: mcpUrl.href,
    issuer: `${base}/`,
    provider,
    authorizeQueries,
    misbehave,
    stop: () =>
      new Promise((resolve) => {
        listener.closeAllConnections();
        listener.close(() => resolve());
      }),
  };
}

/** Routes ahead of the SDK's that answer as a broken authorization server would, when asked to. */
function misbehaviourRoutes(
  app: ReturnType<typeof createMcpExpressApp>,
  base: string,
  misbehave: Misbehaviour,
) {
  app.get('/.well-known/oauth-authorization-server', (_req: Req, res: Res, next: Next) => {
    if (misbehave.hangMetadata) return; // never answers
    if (!misbehave.wrongIssuer) return next();
    res.json({ ...metadataOf(base), issuer: 'https://elsewhere.example' });
  });
  app.post('/token', (_req: Req, res: Res, next: Next) => {
    if (!misbehave.htmlTokens) return next();
    res.type('html').send('<!doctype html><html><body><h1>Sign in</h1></body></html>');
  });
  app.post('/register', (_req: Req, res: Res, next: Next) => {
    if (!misbehave.noRegistration) return next();
    res.status(404).end();
  });
}

/** The metadata the SDK's router would serve, for the misbehaving variants. */
function metadataOf(base: string) {
  return {
    issuer: `${base}/`,
    authorization_endpoint: `${base}/authorize`,
    token_endpoint: `${base}/token`,
    registration_endpoint: `${base}/register`,
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_post', 'none'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
  };
}
