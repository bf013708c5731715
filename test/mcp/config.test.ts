// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} in MCP files is expanded by lathe, not by JavaScript
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMcpConfig } from '../../src/mcp/config.js';
import { mcpFileFor, removeServerEntry, writeServerEntry } from '../../src/mcp/config_file.js';
import { expandVariables } from '../../src/mcp/expand.js';
import { tempDir } from '../support/runtime_fixtures.js';

function places() {
  const documentsRoot = tempDir('lathe-home-');
  const workspace = tempDir('lathe-ws-');
  return { documentsRoot, workspace };
}

function writeJson(file: string, value: unknown | string): void {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
}

const globalFile = (root: string) => join(root, 'settings', 'mcp_settings.json');
const workspaceFile = (ws: string, name: string) => join(ws, '.agents', 'mcp', name);

describe('MCP settings files', () => {
  it('reads stdio and HTTP servers with their defaults', () => {
    const p = places();
    writeJson(globalFile(p.documentsRoot), {
      mcpServers: {
        local: { command: 'node', args: ['server.js'], env: { A: '1' } },
        remote: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer x' } },
        old: {
          type: 'sse',
          url: 'http://127.0.0.1:9/sse',
          timeout: 5,
          autoApprove: ['read'],
          disabled: true,
        },
      },
    });
    const { servers, warnings } = loadMcpConfig(p);
    expect(warnings).toEqual([]);
    const byName = Object.fromEntries(servers.map((s) => [s.name, s]));
    expect(byName.local).toMatchObject({
      transport: 'stdio',
      command: 'node',
      args: ['server.js'],
      env: { A: '1' },
    });
    expect(byName.local.timeoutMs).toBe(60_000);
    expect(byName.remote).toMatchObject({
      transport: 'streamableHttp',
      headers: { Authorization: 'Bearer x' },
    });
    expect(byName.old).toMatchObject({
      transport: 'sse',
      timeoutMs: 5_000,
      autoApprove: ['read'],
      disabled: true,
    });
  });

  it('accepts "http" and "streamableHttp" as the streamable HTTP transport', () => {
    const p = places();
    writeJson(globalFile(p.documentsRoot), {
      mcpServers: {
        a: { type: 'http', url: 'http://x/mcp' },
        b: { type: 'streamableHttp', url: 'http://x/mcp' },
      },
    });
    expect(loadMcpConfig(p).servers.map((s) => s.transport)).toEqual(['streamableHttp', 'streamableHttp']);
  });

  it('lets a workspace server replace a global one of the same name', () => {
    const p = places();
    writeJson(globalFile(p.documentsRoot), {
      mcpServers: { db: { command: 'global-db' }, only: { command: 'g' } },
    });
    writeJson(workspaceFile(p.workspace, 'db.json'), { mcpServers: { db: { command: 'workspace-db' } } });
    const { servers } = loadMcpConfig(p);
    expect(servers.find((s) => s.name === 'db')?.command).toBe('workspace-db');
    expect(servers.find((s) => s.name === 'only')?.command).toBe('g');
  });

  it('warns about a file with bad JSON and still loads the other files', () => {
    const p = places();
    writeJson(workspaceFile(p.workspace, 'a.json'), '{ "mcpServers": { broken');
    writeJson(workspaceFile(p.workspace, 'b.json'), { mcpServers: { fine: { command: 'node' } } });
    const { servers, warnings } = loadMcpConfig(p);
    expect(servers.map((s) => s.name)).toEqual(['fine']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/a\.json: not valid JSON/);
  });

  it('warns about an invalid entry and keeps the valid ones', () => {
    const p = places();
    writeJson(globalFile(p.documentsRoot), {
      mcpServers: {
        nothing: {},
        badType: { type: 'websocket', url: 'ws://x' },
        badArgs: { command: 'x', args: 'not a list' },
        badTimeout: { command: 'x', timeout: -1 },
        ok: { command: 'x' },
      },
    });
    const { servers, warnings } = loadMcpConfig(p);
    expect(servers.map((s) => s.name)).toEqual(['ok']);
    expect(warnings.join('\n')).toMatch(/"nothing" needs "command" or "url"/);
    expect(warnings.join('\n')).toMatch(/unknown "type" "websocket"/);
    expect(warnings.join('\n')).toMatch(/"args" must be a list/);
    expect(warnings.join('\n')).toMatch(/"timeout" must be a positive number/);
  });

  it('expands ${VAR} and ${VAR:-default} in args, env and headers', () => {
    const p = places();
    writeJson(globalFile(p.documentsRoot), {
      mcpServers: {
        s: { command: 'run', args: ['--key=${KEY}', '${MISSING:-fallback}'], env: { TOKEN: '${KEY}' } },
        h: { url: 'http://x/mcp', headers: { Authorization: 'Bearer ${KEY}' } },
      },
    });
    const { servers } = loadMcpConfig({ ...p, env: { KEY: 'secret' } });
    expect(servers[0]).toMatchObject({ args: ['--key=secret', 'fallback'], env: { TOKEN: 'secret' } });
    expect(servers[1].headers.Authorization).toBe('Bearer secret');
  });

  it('skips a server that needs an unset variable, saying which', () => {
    const p = places();
    writeJson(globalFile(p.documentsRoot), {
      mcpServers: { s: { command: 'run', env: { T: '${NOPE_NOT_SET}' } } },
    });
    const { servers, warnings } = loadMcpConfig({ ...p, env: {} });
    expect(servers).toEqual([]);
    expect(warnings[0]).toMatch(/unset environment variable NOPE_NOT_SET/);
  });

  it('keeps $${NAME} as a literal', () => {
    expect(expandVariables('a $${HOME} b', { HOME: '/h' }, new Set())).toBe('a ${HOME} b');
  });

  it('resolves a relative cwd against the workspace', () => {
    const p = places();
    writeJson(workspaceFile(p.workspace, 's.json'), { mcpServers: { s: { command: 'x', cwd: 'tools' } } });
    expect(loadMcpConfig(p).servers[0].cwd).toBe(join(p.workspace, 'tools'));
  });
});

describe('editing MCP settings files', () => {
  it('adds to the global file, keeping other keys and servers', () => {
    const p = places();
    const file = mcpFileFor('global', 'a', p);
    writeJson(file, { mcpServers: { old: { command: 'o' } }, other: true });
    expect(writeServerEntry(file, 'a', { command: 'node' })).toBe(false);
    expect(writeServerEntry(file, 'a', { command: 'node2' })).toBe(true);
    const { servers } = loadMcpConfig(p);
    expect(servers.map((s) => [s.name, s.command])).toEqual([
      ['old', 'o'],
      ['a', 'node2'],
    ]);
  });

  it('refuses to edit a file with bad JSON', () => {
    const p = places();
    const file = mcpFileFor('global', 'a', p);
    writeJson(file, '{ nope');
    expect(() => writeServerEntry(file, 'a', { command: 'x' })).toThrow(/not valid JSON/);
  });

  it('removes a server from every file and deletes a workspace file left empty', () => {
    const p = places();
    writeServerEntry(mcpFileFor('global', 'x', p), 'x', { command: 'g' });
    const wsFile = mcpFileFor('workspace', 'x', p);
    writeServerEntry(wsFile, 'x', { command: 'w' });
    const changed = removeServerEntry('x', p);
    expect(changed).toHaveLength(2);
    expect(loadMcpConfig(p).servers).toEqual([]);
    expect(existsSync(wsFile)).toBe(false);
  });
});
