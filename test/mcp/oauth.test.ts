import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { loginToServer } from '../../src/mcp/auth/login.js';
import { readLogin } from '../../src/mcp/auth/store.js';
import type { McpServerConfig } from '../../src/mcp/config.js';
import { McpHub } from '../../src/mcp/hub.js';
import { serverConfig } from '../support/mcp_servers/peers.js';
import {
  type Misbehaviour,
  type ProtectedServer,
  startProtectedServer,
} from '../support/oauth/protected_server.js';
import { tempDir } from '../support/runtime_fixtures.js';

const BROWSER_SCRIPT = new URL('../support/oauth/browser.mjs', import.meta.url).pathname;
const signal = () => new AbortController().signal;

let servers: ProtectedServer[] = [];
let hubs: McpHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.map((h) => h.close()));
  await Promise.all(servers.map((s) => s.stop()));
  servers = [];
  hubs = [];
});

async function setUp(misbehave: Misbehaviour = {}, oauth?: Record<string, unknown>) {
  const server = await startProtectedServer(misbehave);
  servers.push(server);
  const home = tempDir('lathe-home-');
  const workspace = tempDir('lathe-ws-');
  const config: McpServerConfig = {
    ...serverConfig('prot', { type: 'http', url: server.url, ...(oauth ? { oauth } : {}) }),
    authFolder: join(home, 'mcp-auth'),
  };
  const browserLog = join(home, 'browser.log');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    BROWSER: `${process.execPath} ${BROWSER_SCRIPT}`,
    OAUTH_BROWSER_LOG: browserLog,
  };
  const said: string[] = [];
  const login = (
    extra: {
      env?: NodeJS.ProcessEnv;
      timeoutMs?: number;
      input?: NodeJS.ReadableStream;
      noBrowser?: boolean;
    } = {},
  ) =>
    loginToServer(config, {
      timeoutMs: extra.timeoutMs ?? 20_000,
      env: extra.env ?? env,
      say: (line) => said.push(line),
      input: extra.input ?? new PassThrough(),
      noBrowser: extra.noBrowser,
    });
  const session = async () => {
    const hub = new McpHub([config], { workspace });
    hubs.push(hub);
    await hub.connectAll();
    return hub;
  };
  const stored = () => readLogin(config.authFolder!, server.url);
  const files = () => {
    try {
      return readdirSync(config.authFolder!);
    } catch {
      return [];
    }
  };
  return { server, home, workspace, config, env, said, login, session, stored, files, browserLog };
}

describe('OAuth login to a remote MCP server', () => {
  it('discovers, registers dynamically, authorizes with PKCE S256 and the resource, stores 0600', async () => {
    const t = await setUp();
    const result = await t.login();
    expect(result).toEqual({ asked: true, tools: ['whoami', 'admin'] });
    // Discovery: the browser was sent to the authorization endpoint the metadata names.
    const query = t.server.authorizeQueries[0];
    expect(t.server.authorizeQueries).toHaveLength(1);
    expect(query.get('code_challenge_method')).toBe('S256');
    expect(query.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(query.get('resource')).toBe(t.server.url);
    expect(query.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    // Registration (RFC 7591): one public client with the loopback redirect.
    expect(t.server.provider.registrations).toHaveLength(1);
    expect(t.server.provider.registrations[0].token_endpoint_auth_method).toBe('none');
    // The token endpoint checked the verifier against the challenge (it refuses otherwise).
    expect(t.server.provider.codeExchanges).toEqual([
      { clientId: t.server.provider.registrations[0].client_id, resource: t.server.url },
    ]);
    const record = t.stored();
    expect(record?.tokens?.access_token).toMatch(/^at-/);
    const [file] = t.files();
    expect(statSync(join(t.config.authFolder!, file)).mode & 0o777).toBe(0o600);
    expect(statSync(t.config.authFolder!).mode & 0o777).toBe(0o700);
    // Used by a session: the tool call carries the token.
    const hub = await t.session();
    const called = await hub.callTool('prot', 'whoami', {}, { signal: signal() });
    expect(called.text).toContain(`client ${t.server.provider.registrations[0].client_id}`);
    // Never in the workspace.
    expect(readdirSync(t.workspace)).toEqual([]);
    expect(t.said.join('\n')).not.toContain(record!.tokens!.access_token);
  });

  it('uses a pre-registered client id and secret from the settings, without registering', async () => {
    const t = await setUp({ noRegistration: true }, { clientId: 'lathe-pre', clientSecret: 's3cret' });
    t.server.provider.clients.set('lathe-pre', {
      client_id: 'lathe-pre',
      client_secret: 's3cret',
      redirect_uris: ['http://127.0.0.1/callback'],
      token_endpoint_auth_method: 'client_secret_post',
    });
    await t.login();
    expect(t.server.provider.registrations).toHaveLength(0);
    expect(t.server.provider.codeExchanges[0].clientId).toBe('lathe-pre');
    // The secret stays in the settings: nothing of the client is copied to disk.
    expect(readFileSync(join(t.config.authFolder!, t.files()[0]), 'utf8')).not.toContain('s3cret');
  });

  it('logs in headless from a pasted redirect address', async () => {
    const t = await setUp();
    const input = new PassThrough();
    const { DISPLAY: _d, WAYLAND_DISPLAY: _w, BROWSER: _b, ...headless } = t.env;
    const done = t.login({ env: headless, input });
    // The link is printed; the user opens it elsewhere and pastes where the browser went.
    const link = await new Promise<string>((resolve) => {
      const poll = setInterval(() => {
        const line = t.said.find((l) => l.includes('/authorize?'));
        if (line) {
          clearInterval(poll);
          resolve(line.slice(line.indexOf('http')));
        }
      }, 20);
    });
    const answer = await fetch(link.trim(), { redirect: 'manual' });
    input.write('not a redirect\n');
    input.write(`${answer.headers.get('location')}\n`);
    expect((await done).asked).toBe(true);
    expect(t.said.join('\n')).toContain('paste that whole address');
    expect(t.stored()?.tokens).toBeDefined();
  });

  it('refreshes an expired access token in a session and writes the new one', async () => {
    const t = await setUp();
    await t.login();
    const before = t.stored()!.tokens!.access_token;
    t.server.provider.expireAccessTokens();
    const hub = await t.session();
    expect(hub.servers()[0].state).toBe('connected');
    expect(t.server.provider.refreshes).toHaveLength(1);
    expect(t.stored()!.tokens!.access_token).not.toBe(before);
    expect((await hub.callTool('prot', 'whoami', {}, { signal: signal() })).isError).toBeFalsy();
  });

  it('steps up on 403 insufficient_scope: the session says to log in, the next login asks for it', async () => {
    const t = await setUp();
    await t.login();
    const hub = await t.session();
    const refused = await hub.callTool('prot', 'admin', {}, { signal: signal() });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('asks for more access (scope "read write"): run `lathe mcp login prot`');
    expect(t.stored()?.stepUpScope).toBe('read write');
    await t.login();
    expect(t.server.authorizeQueries.at(-1)?.get('scope')).toBe('read write');
    const again = await t.session();
    expect((await again.callTool('prot', 'admin', {}, { signal: signal() })).text).toBe('admin done');
  });

  it('a session never opens a browser: without a login it says which command logs in', async () => {
    const t = await setUp();
    const hub = await t.session();
    const [server] = hub.servers();
    expect(server.state).toBe('failed');
    expect(server.error).toBe('needs a login: run `lathe mcp login prot`');
    expect(server.auth).toBe('needs login');
    expect(t.server.authorizeQueries).toHaveLength(0);
    expect(t.files()).toEqual([]);
  });

  it('asks to log in again when the refresh token is revoked', async () => {
    const t = await setUp();
    await t.login();
    t.server.provider.revokeAll();
    const hub = await t.session();
    expect(hub.servers()[0].error).toBe(
      'its login has expired or was revoked: run `lathe mcp login prot` to log in again',
    );
    expect(t.stored()?.tokens).toBeUndefined();
  });
});

describe('OAuth login refuses bad answers in one line and stores nothing', () => {
  const refused = async (
    misbehave: Misbehaviour,
    pattern: RegExp,
    extra: { timeoutMs?: number; forge?: boolean } = {},
  ) => {
    const t = await setUp(misbehave);
    const env = extra.forge ? { ...t.env, OAUTH_BROWSER_FORGE_STATE: '1' } : t.env;
    const error = await t.login({ env, timeoutMs: extra.timeoutMs }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.name).toBe('LoginError');
    expect(error?.message).toMatch(pattern);
    expect(error?.message).not.toContain('\n');
    expect(t.files()).toEqual([]);
  };

  it('a server that hangs in the dance (bounded wait)', () =>
    refused(
      { hangMetadata: true },
      /the login did not finish within 2 s: http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-authorization-server did not answer$/,
      { timeoutMs: 2000 },
    ));

  it('metadata naming another issuer', () =>
    refused({ wrongIssuer: true }, /names another issuer .*\(issuer mismatch\)/));

  it('a redirect with a wrong state', () =>
    refused({}, /another state than the one lathe sent/, { forge: true }));

  it('a token endpoint that answers HTML', () =>
    refused({ htmlTokens: true }, /\/token answered HTTP 200 with text\/html, not the JSON OAuth expects/));
});
