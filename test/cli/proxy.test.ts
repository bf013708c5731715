import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LATHE_BIN, latheAsync } from '../support/cli.js';
import { FakeModelServer } from '../support/fake_model_server.js';
import { HttpProxy } from '../support/http_proxy.js';
import { tempDir } from '../support/runtime_fixtures.js';

// HTTPS_PROXY / HTTP_PROXY / NO_PROXY, with a real proxy on 127.0.0.1 in front of the servers.

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** No proxy variable of the machine running the tests leaks into a run. */
const NO_PROXY_ENV = {
  HTTPS_PROXY: '',
  https_proxy: '',
  HTTP_PROXY: '',
  http_proxy: '',
  NO_PROXY: '',
  no_proxy: '',
};

async function start() {
  const server = await FakeModelServer.start({
    turns: [{ toolCalls: [{ name: 'attempt_completion', input: { result: 'Done.' } }] }],
  });
  const proxy = await HttpProxy.start();
  cleanups.push(
    () => server.close(),
    () => proxy.close(),
  );
  const host = new URL(server.url).host;
  return { server, proxy, host };
}

function headless(server: FakeModelServer, env: Record<string, string>) {
  return latheAsync(['-p', 'hi', '--model', 'anthropic/claude-sonnet-4-5'], {
    cwd: tempDir('lathe-repo-'),
    env: {
      ...NO_PROXY_ENV,
      LATHE_HOME: tempDir('lathe-home-'),
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: 'test-key',
      LATHE_RETRY_BASE_MS: '10',
      NODE_ENV: 'test',
      ...env,
    },
  });
}

describe('a proxy named in the environment', () => {
  it('carries the model requests (HTTP_PROXY)', async () => {
    const { server, proxy, host } = await start();
    const r = await headless(server, { HTTP_PROXY: proxy.url });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Done.\n');
    expect(proxy.seen).toContain(`CONNECT ${host}`);
    expect(server.requests.filter((q) => q.kind === 'model')).toHaveLength(1);
  });

  it('carries https requests with HTTPS_PROXY', async () => {
    const { server, proxy, host } = await start();
    // The tunnel opens; the plain-HTTP server then fails the TLS handshake, in one line.
    const r = await headless(server, { HTTPS_PROXY: proxy.url, ANTHROPIC_BASE_URL: `https://${host}` });
    expect(proxy.seen).toContain(`CONNECT ${host}`);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^lathe: [^\n]+\n$/);
  });

  it('carries them with the lower-case http_proxy too', async () => {
    const { server, proxy, host } = await start();
    const r = await headless(server, { http_proxy: proxy.url });
    expect(r.code).toBe(0);
    expect(proxy.seen).toContain(`CONNECT ${host}`);
  });

  it('is passed by for hosts NO_PROXY names', async () => {
    const { server, proxy } = await start();
    const r = await headless(server, {
      HTTPS_PROXY: proxy.url,
      HTTP_PROXY: proxy.url,
      NO_PROXY: '127.0.0.1',
    });
    expect(r.code).toBe(0);
    expect(proxy.seen).toEqual([]);
    expect(server.requests.filter((q) => q.kind === 'model')).toHaveLength(1);
  });

  it('carries the requests to an MCP HTTP server', async () => {
    const { proxy } = await start();
    const token = 'proxy-test-token-0123456789abcdef0123';
    const serving: ChildProcess = spawn(
      process.execPath,
      [LATHE_BIN, 'mcp', 'serve', '--http', '0', '--cwd', tempDir()],
      {
        env: { ...process.env, ...NO_PROXY_ENV, LATHE_HOME: tempDir('lathe-home-'), LATHE_MCP_TOKEN: token },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          if (serving.exitCode !== null) return resolve();
          serving.once('exit', () => resolve());
          serving.kill('SIGTERM');
        }),
    );
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      serving.stdout!.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        const found = /lathe MCP server: (\S+)/.exec(out);
        if (found) resolve(found[1]);
      });
      serving.once('exit', (code) => reject(new Error(`lathe mcp serve exited with ${code}`)));
    });
    const home = tempDir('lathe-home-');
    mkdirSync(join(home, 'settings'));
    writeFileSync(
      join(home, 'settings', 'mcp_settings.json'),
      JSON.stringify({ mcpServers: { peer: { url, headers: { Authorization: `Bearer ${token}` } } } }),
    );
    const r = await latheAsync(['tools', '--json', '--cwd', tempDir()], {
      env: { ...NO_PROXY_ENV, LATHE_HOME: home, HTTP_PROXY: proxy.url, NODE_ENV: 'test' },
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).map((row: { name: string }) => row.name)).toContain('peer__read_file');
    expect(proxy.seen).toContain(`CONNECT ${new URL(url).host}`);
  });
});
