// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} in MCP files is expanded by lathe, not by JavaScript
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lathe } from '../support/cli.js';
import { tempDir } from '../support/runtime_fixtures.js';

/** Writes files (path → content) under `dir`, folders made as needed. */
function writeTree(dir: string, files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
}

function setup() {
  const latheHome = tempDir('lathe-home-');
  const home = tempDir('user-home-');
  const cwd = tempDir('ws-');
  const run = (args: string[]) =>
    lathe(['mcp', 'import', ...args], { cwd, env: { LATHE_HOME: latheHome, HOME: home, NODE_ENV: 'test' } });
  const globalServers = () =>
    JSON.parse(readFileSync(join(latheHome, 'settings', 'mcp_settings.json'), 'utf8')).mcpServers;
  return { latheHome, home, cwd, run, globalServers };
}

describe('lathe mcp import', () => {
  it('takes Claude Desktop’s and Claude Code’s servers (user and this project) and says so', () => {
    const t = setup();
    writeTree(t.home, {
      '.config/Claude/claude_desktop_config.json': JSON.stringify({
        mcpServers: { fs: { command: 'npx', args: ['-y', 'server-filesystem', '/docs'] } },
      }),
      '.claude.json': JSON.stringify({
        mcpServers: { docs: { type: 'http', url: 'https://docs.example/mcp', headers: { A: '${TOKEN}' } } },
        projects: {
          [t.cwd]: { mcpServers: { local: { command: 'node', args: ['srv.js'], env: { X: '1' } } } },
          '/elsewhere': { mcpServers: { other: { command: 'other' } } },
        },
      }),
    });
    const result = t.run(['--from', 'claude']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Imported "fs" (');
    expect(result.stdout).toContain('Imported "docs"');
    expect(result.stdout).toContain('Imported "local"');
    expect(t.globalServers()).toEqual({
      fs: { command: 'npx', args: ['-y', 'server-filesystem', '/docs'] },
      docs: { type: 'http', url: 'https://docs.example/mcp', headers: { A: '${TOKEN}' } },
      local: { command: 'node', args: ['srv.js'], env: { X: '1' } },
    });
  });

  it('keeps an entry lathe already has unless --force, and skips what it cannot use', () => {
    const t = setup();
    writeTree(t.home, {
      '.gemini/settings.json': JSON.stringify({
        mcpServers: {
          web: { httpUrl: 'https://web.example/mcp', timeout: 30000, trust: true },
          broken: { args: ['x'] },
        },
      }),
    });
    expect(t.run(['--from', 'gemini']).stdout).toContain('"trust" (no approval) is not carried over');
    expect(t.globalServers().web).toEqual({ type: 'http', url: 'https://web.example/mcp', timeout: 30 });
    writeTree(t.home, {
      '.gemini/settings.json': JSON.stringify({ mcpServers: { web: { url: 'https://sse.example/sse' } } }),
    });
    const again = t.run(['--from', 'gemini']);
    expect(again.stdout).toMatch(/Skipped "web" .*lathe already has a server "web" .*--force replaces it/);
    expect(t.globalServers().web.url).toBe('https://web.example/mcp');
    t.run(['--from', 'gemini', '--force']);
    expect(t.globalServers().web).toEqual({ type: 'sse', url: 'https://sse.example/sse' });
    writeTree(t.home, { '.gemini/settings.json': JSON.stringify({ mcpServers: { broken: { args: [] } } }) });
    expect(t.run(['--from', 'gemini']).stdout).toContain('Skipped "broken"');
    expect(t.globalServers().broken).toBeUndefined();
  });

  it('reads Codex’s [mcp_servers] from config.toml', () => {
    const t = setup();
    writeTree(t.home, {
      '.codex/config.toml': [
        '[mcp_servers.search]',
        'command = "search-mcp"',
        'args = ["--fast"]',
        'env = { KEY = "v" }',
        'tool_timeout_sec = 90',
        '',
        '[mcp_servers.remote]',
        'url = "https://remote.example/mcp"',
        'bearer_token_env_var = "REMOTE_TOKEN"',
        'enabled = false',
      ].join('\n'),
    });
    expect(t.run(['--from', 'codex']).code).toBe(0);
    expect(t.globalServers()).toEqual({
      search: { command: 'search-mcp', args: ['--fast'], env: { KEY: 'v' }, timeout: 90 },
      remote: {
        url: 'https://remote.example/mcp',
        headers: { Authorization: 'Bearer ${REMOTE_TOKEN}' },
        disabled: true,
      },
    });
    writeTree(t.home, { '.codex/config.toml': '[mcp_servers\n' });
    const bad = t.run(['--from', 'codex']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/config\.toml: not valid TOML/);
  });

  it('reads a workspace’s .vscode/mcp.json only in a trusted folder, inputs as variables', () => {
    const t = setup();
    writeTree(t.cwd, {
      '.vscode/mcp.json': JSON.stringify({
        inputs: [{ type: 'promptString', id: 'api-key', password: true }],
        servers: {
          gh: {
            type: 'http',
            url: 'https://gh.example/mcp',
            headers: { Authorization: 'Bearer ${input:api-key}' },
          },
          tool: { type: 'stdio', command: 'tool-mcp' },
        },
      }),
    });
    const untrusted = t.run(['--from', 'vscode']);
    expect(untrusted.stdout).toContain('Not read:');
    expect(untrusted.stdout).toContain('this folder is not trusted');
    expect(existsSync(join(t.latheHome, 'settings', 'mcp_settings.json'))).toBe(false);

    const trusted = t.run(['--from', 'vscode', '--trust', '--scope', 'workspace']);
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toContain('${input:api-key} is ${API_KEY}: set it in the environment');
    const file = (name: string) =>
      JSON.parse(readFileSync(join(t.cwd, '.agents', 'mcp', `${name}.json`), 'utf8'));
    expect(file('gh').mcpServers.gh).toEqual({
      type: 'http',
      url: 'https://gh.example/mcp',
      headers: { Authorization: 'Bearer ${API_KEY}' },
    });
    expect(file('tool').mcpServers.tool).toEqual({ command: 'tool-mcp' });
  });

  it('reads .vscode/mcp.json as VS Code writes it, comments and trailing commas, and names the place of an error', () => {
    const t = setup();
    writeTree(t.cwd, {
      '.vscode/mcp.json':
        '{\n  // servers for this project\n  "servers": {\n    "tool": { "type": "stdio", "command": "tool-mcp", },\n  },\n}\n',
    });
    expect(t.run(['--from', 'vscode', '--trust']).code).toBe(0);
    expect(t.globalServers().tool).toEqual({ command: 'tool-mcp' });

    writeTree(t.cwd, {
      '.vscode/mcp.json': '{\n  "servers": {\n    "tool": { "command": "x" }\n    "other": {}\n  }\n}\n',
    });
    const bad = t.run(['--from', 'vscode', '--trust']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`${join(t.cwd, '.vscode', 'mcp.json')}:4:5: expected , or } after "tool"`);
  });

  it('says when there is nothing to import', () => {
    const t = setup();
    const result = t.run(['--from', 'cursor']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('No cursor settings found');
  });
});
