import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpHub } from '../../src/mcp/hub.js';
import { latheAsync } from '../support/cli.js';
import { FakeModelServer, type RecordedRequest, type ScriptedTurn } from '../support/fake_model_server.js';
import { MISBEHAVING_SERVER, misbehaving, serverConfig } from '../support/mcp_servers/peers.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

/** An HTTP server that accepts every request and never answers it. */
async function hangingHttpServer(): Promise<{ url: string; server: Server }> {
  const server = createServer(() => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, server };
}

let hanging: { url: string; server: Server };
beforeAll(async () => {
  hanging = await hangingHttpServer();
});
afterAll(async () => {
  hanging.server.closeAllConnections();
  await new Promise((resolve) => hanging.server.close(resolve));
});

const stdio = (...args: string[]) => ({ command: process.execPath, args: [MISBEHAVING_SERVER, ...args] });

/** A documents root with global MCP servers and `mcp.startupTimeout` in its settings. */
function home(servers: Record<string, unknown>, startupTimeout = 1): string {
  const root = tempDir('lathe-home-');
  mkdirSync(join(root, 'settings'), { recursive: true });
  writeFileSync(join(root, 'settings', 'mcp_settings.json'), JSON.stringify({ mcpServers: servers }));
  writeFileSync(join(root, 'settings', 'settings.json'), JSON.stringify({ mcp: { startupTimeout } }));
  return root;
}

const linesAbout = (stderr: string, server: string) =>
  stderr.split('\n').filter((line) => line.includes(`"${server}"`));

describe('MCP servers that never answer', () => {
  it('delay `lathe tools` by the start-up timeout at most: reported in one line each, left out', async () => {
    const root = home({ silent: stdio('--silent'), hung: { url: hanging.url } });
    const r = await latheAsync(['tools', '--json'], {
      cwd: tempDir(),
      env: { LATHE_HOME: root, NODE_ENV: 'test' },
    });
    expect(r.code).toBe(0);
    const names = (JSON.parse(r.stdout) as Array<{ name: string }>).map((t) => t.name);
    expect(names).toContain('read_file');
    expect(names.some((n) => n.startsWith('silent__') || n.startsWith('hung__'))).toBe(false);
    for (const server of ['silent', 'hung']) {
      expect(linesAbout(r.stderr, server)).toEqual([
        `lathe: MCP server "${server}" is not up after 1 s (mcp.startupTimeout); its tools are left out`,
      ]);
    }
  });

  it('make `lathe tool` on such a server fail in one result after the start-up wait', async () => {
    const root = home({ silent: stdio('--silent') });
    const input = JSON.stringify({ server_name: 'silent', tool_name: 'echo', arguments: { text: 'x' } });
    const r = await latheAsync(['tool', 'use_mcp_tool', '--input', input, '--approve', 'mcp'], {
      cwd: tempDir(),
      env: { LATHE_HOME: root, NODE_ENV: 'test' },
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('MCP server "silent" is still starting after 1 s');
    expect(linesAbout(r.stderr, 'silent')).toHaveLength(1);
  });

  it('are not started at all by `lathe tool` for a built-in tool', async () => {
    const root = home({ silent: stdio('--silent') });
    const cwd = writeTree({ 'a.txt': 'plain\n' });
    const r = await latheAsync(['tool', 'read_file', '--input', '{"path":"a.txt"}'], {
      cwd,
      env: { LATHE_HOME: root, NODE_ENV: 'test' },
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('plain');
    expect(r.stderr).not.toContain('MCP');
  });

  it('fail to connect once their start deadline has passed, whatever the transport', async () => {
    const sse = createServer((_req, res) => {
      // The event stream opens, but the endpoint event never comes.
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
    });
    await new Promise<void>((resolve) => sse.listen(0, '127.0.0.1', () => resolve()));
    const sseUrl = `http://127.0.0.1:${(sse.address() as AddressInfo).port}/sse`;
    const hub = new McpHub(
      [
        misbehaving('silent', { args: [MISBEHAVING_SERVER, '--silent'], timeout: 0.1 }),
        serverConfig('hung', { url: hanging.url, timeout: 0.1 }),
        serverConfig('sse', { type: 'sse', url: sseUrl, timeout: 0.1 }),
      ],
      { minStartTimeoutMs: 300 },
    );
    try {
      await hub.connectAll();
      expect(hub.servers().map((s) => [s.name, s.state])).toEqual([
        ['silent', 'failed'],
        ['hung', 'failed'],
        ['sse', 'failed'],
      ]);
      expect(hub.servers().find((s) => s.name === 'sse')?.error).toBe(
        'the server did not finish starting within 0.3 s',
      );
    } finally {
      await hub.close();
      sse.closeAllConnections();
      await new Promise((resolve) => sse.close(resolve));
    }
  });

  it('make a use wait no longer than the start-up wait, then say so; closing ends them', async () => {
    const hub = new McpHub([misbehaving('silent', { args: [MISBEHAVING_SERVER, '--silent'] })], {
      startupWaitMs: 200,
    });
    const hung = new McpHub([serverConfig('hung', { url: hanging.url })], { startupWaitMs: 200 });
    try {
      expect(await hub.waitForStartup(200)).toEqual(['silent']);
      expect(await hung.waitForStartup(200)).toEqual(['hung']);
      const call = await hub.callTool(
        'silent',
        'echo',
        { text: 'x' },
        { signal: new AbortController().signal },
      );
      expect(call).toEqual({
        isError: true,
        text:
          'MCP server "silent" is still starting after 0.2 s; its tools join when it is up. ' +
          'Go on without it for now and try again later.',
      });
      expect(hub.servers()[0].state).toBe('connecting');
    } finally {
      await Promise.all([hub.close(), hung.close()]);
    }
  });
});

describe('lathe -p and MCP tools on the first turn', () => {
  let model: FakeModelServer | undefined;
  afterEach(async () => {
    await model?.close();
    model = undefined;
  });

  async function run(root: string, turns: ScriptedTurn[]) {
    model = await FakeModelServer.start({ turns });
    const r = await latheAsync(
      ['-p', 'go', '--model', 'anthropic/claude-sonnet-4-5', '--output-format', 'json', '--approve', 'mcp'],
      {
        cwd: tempDir(),
        env: { LATHE_HOME: root, NODE_ENV: 'test', ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k' },
      },
    );
    return { ...r, requests: model.requests.filter((q) => q.kind === 'model') };
  }

  const done: ScriptedTurn = { toolCalls: [{ name: 'attempt_completion', input: { result: 'done' } }] };

  it('offers the tools of a configured server in the first request', async () => {
    // A start-up timeout far longer than the server needs: the wait ends when it is up.
    const r = await run(home({ good: stdio() }, 600), [done]);
    expect(r.code).toBe(0);
    expect(r.requests[0].toolNames).toContain('good__echo');
    expect(r.stderr).not.toContain('mcp.startupTimeout');
  });

  it('reports a server that never answers in one line and goes on without it', async () => {
    const r = await run(home({ silent: stdio('--silent') }), [done]);
    expect(r.code).toBe(0);
    expect(r.requests[0].toolNames.some((n) => n.startsWith('silent__'))).toBe(false);
    expect(linesAbout(r.stderr, 'silent')).toEqual([
      'lathe: MCP server "silent" is not up after 1 s (mcp.startupTimeout); going on without its tools, which join when it is up',
    ]);
  });

  it('adds the tools of a server that starts late to a later request', async () => {
    const flag = join(tempDir(), 'start');
    const root = home({ late: stdio('--start-when', flag) });
    const hasLateTools = (req: RecordedRequest) => req.toolNames.includes('late__echo');
    // The late server starts only once the first request has been sent, so it missed the wait.
    // Until its tools are offered, the model calls it through use_mcp_tool (which waits up to
    // the start-up timeout for it) and looks again.
    const callOrFinish: ScriptedTurn = {
      respond: (req) => {
        writeFileSync(flag, '');
        if (hasLateTools(req)) return done;
        const input = { server_name: 'late', tool_name: 'echo', arguments: { text: 'are you up' } };
        return { toolCalls: [{ name: 'use_mcp_tool', input }] };
      },
    };
    const r = await run(
      root,
      Array.from({ length: 40 }, () => callOrFinish),
    );
    expect(r.code).toBe(0);
    expect(hasLateTools(r.requests[0])).toBe(false);
    expect(hasLateTools(r.requests.at(-1)!)).toBe(true);
    expect(linesAbout(r.stderr, 'late')).toEqual([
      'lathe: MCP server "late" is not up after 1 s (mcp.startupTimeout); going on without its tools, which join when it is up',
    ]);
  });
});
