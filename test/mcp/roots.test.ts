// biome-ignore-all lint/suspicious/noTemplateCurlyInString: settings values with ${VAR}, not templates
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseServer } from '../../src/mcp/config.js';
import { McpHub } from '../../src/mcp/hub.js';
import { everythingStdio } from '../support/mcp_servers/peers.js';
import { tempDir } from '../support/runtime_fixtures.js';

const signal = () => new AbortController().signal;
const uri = (path: string) => pathToFileURL(path).href;

describe('MCP roots: sent only where a server’s entry asks (server-everything)', () => {
  let hub: McpHub | undefined;
  afterEach(async () => {
    await hub?.close();
    hub = undefined;
  });

  it('tells a server with no "roots" of no folder: it does not even see the capability', async () => {
    const workspace = tempDir('roots-ws-');
    hub = new McpHub([everythingStdio()], { workspace });
    await hub.connectAll();
    const names = hub.tools().map((t) => t.name);
    expect(names).toContain('everything__echo');
    expect(names).not.toContain('everything__get-roots-list');
  });

  it('sends the workspace for roots "workspace"', async () => {
    const workspace = tempDir('roots-ws-');
    hub = new McpHub([everythingStdio('everything', { roots: 'workspace' })], { workspace });
    await hub.connectAll();
    const out = await hub.callTool('everything', 'get-roots-list', {}, { signal: signal() });
    expect(out.text).toContain('1 total');
    expect(out.text).toContain(uri(workspace));
  });

  it('sends the --add-dir folders and listed paths, and tells the server when they change', async () => {
    const workspace = tempDir('roots-ws-');
    const added = join(tempDir('roots-added-'), 'lib');
    const later = join(tempDir('roots-later-'), 'docs');
    mkdirSync(added);
    mkdirSync(later);
    const own = tempDir('roots-own-');
    hub = new McpHub([everythingStdio('everything', { roots: ['added', own] })], {
      workspace,
      addDirs: [added],
    });
    await hub.connectAll();
    const first = await hub.callTool('everything', 'get-roots-list', {}, { signal: signal() });
    expect(first.text).toContain('2 total');
    expect(first.text).toContain(uri(added));
    expect(first.text).toContain(uri(own));
    expect(first.text).not.toContain(uri(workspace));

    await hub.setRootPlaces({ addDirs: [added, later] });
    // The server asks again on notifications/roots/list_changed.
    await vi.waitFor(
      async () => {
        const next = await hub!.callTool('everything', 'get-roots-list', {}, { signal: signal() });
        expect(next.text).toContain(uri(later));
      },
      { timeout: 20_000, interval: 50 },
    );
  });
});

describe('MCP roots setting', () => {
  const parse = (roots: unknown) =>
    parseServer(
      'fs',
      { command: 'x', roots },
      { source: 'f.json', workspace: '/ws', env: { HOME_DIR: '/h' } },
    );

  it('reads none, workspace, added and paths (relative to the workspace, ${VAR} expanded)', () => {
    expect(parse(undefined)).toMatchObject({ roots: [] });
    expect(parse('none')).toMatchObject({ roots: [] });
    expect(parse('workspace')).toMatchObject({ roots: [{ kind: 'workspace' }] });
    expect(parse(['added', 'sub', '${HOME_DIR}/x'])).toMatchObject({
      roots: [{ kind: 'added' }, { kind: 'path', path: '/ws/sub' }, { kind: 'path', path: '/h/x' }],
    });
  });

  it('refuses any other value in one line', () => {
    expect(parse(3)).toBe(
      'f.json: server "fs": "roots" must be "none", "workspace", or a list of "workspace", "added" and folder paths',
    );
    expect(parse([true])).toMatch(/"roots" must be/);
  });
});
