import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latheAsync } from '../support/cli.js';
import { type ProtectedServer, startProtectedServer } from '../support/oauth/protected_server.js';
import { tempDir } from '../support/runtime_fixtures.js';

const BROWSER_SCRIPT = new URL('../support/oauth/browser.mjs', import.meta.url).pathname;

describe('lathe mcp login / list / logout against a local authorization server', () => {
  let server: ProtectedServer;
  const home = tempDir('lathe-home-');
  const cwd = tempDir('lathe-ws-');
  const browserLog = join(home, 'browser.log');
  const env = () => ({
    LATHE_HOME: home,
    NODE_ENV: 'test',
    BROWSER: `${process.execPath} ${BROWSER_SCRIPT}`,
    OAUTH_BROWSER_LOG: browserLog,
  });
  const authFolder = join(home, 'mcp-auth');
  beforeAll(async () => {
    server = await startProtectedServer();
    mkdirSync(join(home, 'settings'), { recursive: true });
    writeFileSync(
      join(home, 'settings', 'mcp_settings.json'),
      JSON.stringify({ mcpServers: { prot: { type: 'http', url: server.url, autoApprove: ['whoami'] } } }),
    );
  });
  afterAll(() => server.stop());

  it('a headless list says to log in and opens no browser', async () => {
    const listed = await latheAsync(['mcp', 'list'], { cwd, env: env() });
    expect(listed.stdout).toMatch(/^prot\s+streamableHttp\s+failed\s+-\s+needs login\s+/m);
    expect(listed.stdout).toContain('  prot: needs a login: run `lathe mcp login prot`');
    expect(existsSync(browserLog)).toBe(false);
  });

  it('logs in through the browser, lists the login, calls a tool, logs out', async () => {
    const login = await latheAsync(['mcp', 'login', 'prot'], { cwd, env: env() });
    expect(login.stderr).toContain('Opening the browser to log in to MCP server "prot"');
    expect(login.stdout).toBe('Logged in to MCP server "prot" (2 tools: whoami, admin).\n');
    const [file] = readdirSync(authFolder);
    expect(statSync(join(authFolder, file)).mode & 0o777).toBe(0o600);

    const listed = await latheAsync(['mcp', 'list'], { cwd, env: env() });
    expect(listed.stdout).toMatch(
      /^prot\s+streamableHttp\s+connected \(\d+ ms\)\s+2\s+logged in, expires in 60 min\s+/m,
    );

    const called = await latheAsync(['tool', 'prot__whoami', '--input', '{}'], { cwd, env: env() });
    expect(called.stdout).toContain('with scopes [read]');

    const logout = await latheAsync(['mcp', 'logout', 'prot'], { cwd, env: env() });
    expect(logout.stdout).toBe('Logged out of MCP server "prot": its stored login is removed.\n');
    expect(readdirSync(authFolder)).toEqual([]);
    expect(readdirSync(cwd)).toEqual([]);
    // Four lathe processes and a browser's: more than the default timeout on a busy machine.
  }, 60_000);
});
