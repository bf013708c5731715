import type { ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type HttpServing, serveHttp } from '../../src/mcp/http_server.js';
import type { SessionEnd } from '../../src/mcp/http_sessions.js';
import { createRuntime } from '../../src/runtime/create_runtime.js';
import { stopChild } from '../support/mcp_servers/peers.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { gate, serveCommand } from './served_http.js';

let serving: HttpServing | undefined;
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
  await serving?.close();
  serving = undefined;
});

/** Ends of sessions as the server reports them, awaited by id. */
function endLog() {
  const ends: Array<{ id: string; why: SessionEnd }> = [];
  const waiters: Array<() => void> = [];
  return {
    record: (id: string, why: SessionEnd) => {
      ends.push({ id, why });
      for (const wake of waiters.splice(0)) wake();
    },
    ends,
    async waitFor(id: string): Promise<SessionEnd> {
      for (;;) {
        const found = ends.find((e) => e.id === id);
        if (found) return found.why;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
  };
}

async function serve(limits: { idleTimeoutMs?: number; maxSessions?: number }, tools = [gate().tool]) {
  const runtime = createRuntime({
    cwd: tempDir(),
    documentsRoot: tempDir('lathe-home-'),
    env: { NODE_ENV: 'test' },
    externalTools: tools,
  });
  const log = endLog();
  serving = await serveHttp(runtime, { port: 0, version: 'test', limits, onSessionEnd: log.record });
  return { serving, log };
}

async function connect(): Promise<{ client: Client; id: string }> {
  const transport = new StreamableHTTPClientTransport(new URL(serving!.url), {
    requestInit: { headers: { Authorization: `Bearer ${serving!.token}` } },
  });
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(transport);
  clients.push(client);
  return { client, id: transport.sessionId! };
}

/** A raw request in an existing session: its status tells whether the session still exists. */
async function statusOf(id: string): Promise<number> {
  const res = await fetch(serving!.url, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${serving!.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': id,
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'ping' }),
  });
  await res.text();
  return res.status;
}

describe('lathe mcp serve --http: session expiry', () => {
  it('closes a session that has been idle for the idle timeout; the client is told it is gone (404)', async () => {
    const { log } = await serve({ idleTimeoutMs: 1_000 });
    const { id } = await connect();
    expect(await log.waitFor(id)).toBe('idle');
    expect(await statusOf(id)).toBe(404);
  });

  it('does not expire a session while it is answering a request', async () => {
    const slow = gate();
    const { log } = await serve({ idleTimeoutMs: 1_000 }, [slow.tool]);
    const { client, id } = await connect();
    const pending = client.callTool({ name: 'wait_for_gate', arguments: {} });
    await slow.running;
    // Another session, opened and left idle after the call started, expires first.
    const other = await connect();
    expect(await log.waitFor(other.id)).toBe('idle');
    expect(log.ends.map((e) => e.id)).not.toContain(id);
    slow.open();
    expect((await pending).content).toEqual([{ type: 'text', text: 'through' }]);
    expect(await log.waitFor(id)).toBe('idle');
  });

  it('at the cap, closes the least recently used idle session to make room', async () => {
    const { log } = await serve({ maxSessions: 2 });
    const first = await connect();
    const second = await connect();
    await first.client.listTools(); // the first is now the more recently used
    const third = await connect();
    expect(await log.waitFor(second.id)).toBe('evicted');
    expect(await statusOf(second.id)).toBe(404);
    expect(await statusOf(first.id)).toBe(200);
    expect(await statusOf(third.id)).toBe(200);
  });

  it('at the cap with every session busy, refuses a new one with 503 and a reason', async () => {
    const busy = gate();
    await serve({ maxSessions: 1 }, [busy.tool]);
    const { client } = await connect();
    const pending = client.callTool({ name: 'wait_for_gate', arguments: {} });
    await busy.running;
    const refused = await fetch(serving!.url, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${serving!.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      }),
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
      'Too many sessions: all 1 are answering requests; retry later or close one (DELETE /mcp)',
    );
    busy.open();
    await pending;
  });
});

describe('lathe mcp serve --http with mcp.sessionIdleTimeout in settings', () => {
  let child: ChildProcess | undefined;
  afterEach(async () => {
    if (child) await stopChild(child);
    child = undefined;
  });

  it('expires an idle session after the configured time', async () => {
    const home = tempDir('lathe-home-');
    mkdirSync(join(home, 'settings'), { recursive: true });
    writeFileSync(
      join(home, 'settings', 'settings.json'),
      JSON.stringify({ mcp: { sessionIdleTimeout: 0.3 } }),
    );
    const served = await serveCommand(tempDir(), { LATHE_HOME: home });
    child = served.child;
    serving = { url: served.url, token: served.token, close: async () => {} };
    const { id } = await connect();
    // Look again and again, a bounded number of times, each after longer than the idle
    // timeout (a look is a request: it would keep the session alive if it came sooner).
    let status = 200;
    for (let i = 0; i < 20 && status === 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      status = await statusOf(id);
    }
    expect(status).toBe(404);
  });
});
