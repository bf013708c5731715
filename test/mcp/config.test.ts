// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} in MCP files is expanded by lathe, not by JavaScript
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SettingsError } from '../../src/config/settings_file.js';
import { loadMcpConfig } from '../../src/mcp/config.js';
import { mcpFileFor, removeServerEntry, writeServerEntry } from '../../src/mcp/config_file.js';
import { expandVariables } from '../../src/mcp/expand.js';
import { createRuntime } from '../../src/runtime/create_runtime.js';
import { tempDir } from '../support/runtime_fixtures.js';

function places() {
  const documentsRoot = tempDir('lathe-home-');
  const workspace = tempDir('lathe-ws-');
  return { documentsRoot, workspace, workspaceTrusted: true };
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

  it('stops at a file that does not parse, naming the file and line', () => {
    const p = places();
    writeJson(workspaceFile(p.workspace, 'a.json'), '{\n  "mcpServers": { broken');
    writeJson(workspaceFile(p.workspace, 'b.json'), { mcpServers: { fine: { command: 'node' } } });
    expect(() => loadMcpConfig(p)).toThrow(SettingsError);
    expect(() => loadMcpConfig(p)).toThrow(/a\.json:2:19: expected a "quoted" property name or \}/);
  });

  it('stops at a file whose mcpServers is not an object', () => {
    const p = places();
    writeJson(globalFile(p.documentsRoot), { mcpServers: ['x'] });
    expect(() => loadMcpConfig(p)).toThrow(/mcp_settings\.json: "mcpServers" must be an object/);
  });

  it('reads JSONC: comments, trailing commas and a byte-order mark', () => {
    const p = places();
    writeJson(
      globalFile(p.documentsRoot),
      '\uFEFF{\n  // the local one\n  "mcpServers": { "a": { "command": "node", "args": ["x",], }, },\n}\n',
    );
    expect(loadMcpConfig(p).servers.map((s) => [s.name, s.args])).toEqual([['a', ['x']]]);
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

describe('the project .mcp.json other agents write', () => {
  const projectFile = (ws: string) => join(ws, '.mcp.json');

  it('reads its stdio and HTTP servers', () => {
    const p = places();
    writeJson(projectFile(p.workspace), {
      mcpServers: {
        files: { command: 'npx', args: ['-y', 'some-server'], env: { LEVEL: 'debug' } },
        api: { type: 'http', url: 'https://example.com/mcp', headers: { 'X-Key': 'k' } },
        events: { type: 'sse', url: 'https://example.com/sse' },
      },
    });
    const byName = Object.fromEntries(loadMcpConfig(p).servers.map((s) => [s.name, s]));
    expect(byName.files).toMatchObject({ transport: 'stdio', command: 'npx', env: { LEVEL: 'debug' } });
    expect(byName.api).toMatchObject({ transport: 'streamableHttp', headers: { 'X-Key': 'k' } });
    expect(byName.events.transport).toBe('sse');
  });

  it('is overridden by .agents/mcp/ of the same name, and overrides the global file', () => {
    const p = places();
    writeJson(globalFile(p.documentsRoot), {
      mcpServers: { a: { command: 'global' }, b: { command: 'global' } },
    });
    writeJson(projectFile(p.workspace), {
      mcpServers: { a: { command: 'project' }, b: { command: 'project' } },
    });
    writeJson(workspaceFile(p.workspace, 'a.json'), { mcpServers: { a: { command: 'agents' } } });
    const commands = Object.fromEntries(loadMcpConfig(p).servers.map((s) => [s.name, s.command]));
    expect(commands).toEqual({ a: 'agents', b: 'project' });
  });

  it('is a protected path: writing it asks even under --yolo', async () => {
    const workspace = tempDir('lathe-ws-');
    const runtime = createRuntime({
      cwd: workspace,
      documentsRoot: tempDir('lathe-home-'),
      env: {},
      yolo: true,
    });
    const r = await runtime.runTool('write_to_file', { path: '.mcp.json', content: '{"mcpServers":{}}' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("the project's MCP servers (.mcp.json)");
    expect(existsSync(join(workspace, '.mcp.json'))).toBe(false);
  });

  it('is edited by remove but never deleted', () => {
    const p = places();
    writeJson(projectFile(p.workspace), { mcpServers: { a: { command: 'x' } } });
    expect(removeServerEntry('a', p)).toEqual([projectFile(p.workspace)]);
    expect(JSON.parse(readFileSync(projectFile(p.workspace), 'utf8'))).toEqual({ mcpServers: {} });
  });
});

describe('workspace servers of a folder that is not trusted', () => {
  it('are not loaded but listed, and a global server of the same name stays', () => {
    const p = { ...places(), workspaceTrusted: false };
    writeJson(globalFile(p.documentsRoot), { mcpServers: { db: { command: 'global-db' } } });
    writeJson(workspaceFile(p.workspace, 'x.json'), {
      mcpServers: { db: { command: 'evil-db' }, evil: { command: 'npx', args: ['evil'] } },
    });
    writeJson(join(p.workspace, '.mcp.json'), { mcpServers: { other: { url: 'http://127.0.0.1:9/mcp' } } });
    const config = loadMcpConfig(p);
    expect(config.servers.map((s) => [s.name, s.command])).toEqual([['db', 'global-db']]);
    expect(config.untrusted.map((s) => s.name).sort()).toEqual(['db', 'evil', 'other']);
  });

  it('show ${VAR} as written, never the value from the environment', () => {
    const p = { ...places(), workspaceTrusted: false, env: { TOKEN: 'secret-value' } };
    writeJson(workspaceFile(p.workspace, 'x.json'), {
      mcpServers: { s: { command: 'run', args: ['--token=${TOKEN}', '${UNSET}'] } },
    });
    const config = loadMcpConfig(p);
    expect(config.untrusted[0].args).toEqual(['--token=${TOKEN}', '${UNSET}']);
    expect(config.warnings).toEqual([]);
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
    expect(() => writeServerEntry(file, 'a', { command: 'x' })).toThrow(/mcp_settings\.json:1:3: /);
    expect(readFileSync(file, 'utf8')).toBe('{ nope');
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
