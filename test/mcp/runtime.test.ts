import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { attachMcp } from '../../src/mcp/attach.js';
import type { McpHub } from '../../src/mcp/hub.js';
import { createRuntime, type RuntimeOptions } from '../../src/runtime/create_runtime.js';
import { MISBEHAVING_SERVER } from '../support/mcp_servers/peers.js';
import { tempDir } from '../support/runtime_fixtures.js';

const hubs: McpHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((h) => h.close()));
});

/** A runtime over a workspace whose `.agents/mcp/test.json` names the misbehaving server, MCP attached. */
async function session(options: RuntimeOptions = {}, server: Record<string, unknown> = {}) {
  const workspace = tempDir('lathe-ws-');
  mkdirSync(join(workspace, '.agents', 'mcp'), { recursive: true });
  writeFileSync(
    join(workspace, '.agents', 'mcp', 'test.json'),
    JSON.stringify({
      mcpServers: {
        bad: { command: process.execPath, args: [MISBEHAVING_SERVER], autoApprove: ['echo'], ...server },
      },
    }),
  );
  const runtime = createRuntime({
    cwd: workspace,
    documentsRoot: tempDir('lathe-home-'),
    env: { NODE_ENV: 'test' },
    trust: true,
    ...options,
  });
  const reports: string[] = [];
  const hub = await attachMcp(runtime, { report: (line) => reports.push(line), env: {} });
  if (!hub) throw new Error('no MCP hub');
  hubs.push(hub);
  await hub.connectAll();
  return { runtime, hub, reports };
}

const names = (pool: readonly { name: string }[]) => pool.map((t) => t.name);

describe('MCP tools in the runtime', () => {
  it('adds nothing when no server is configured', async () => {
    const runtime = createRuntime({ cwd: tempDir(), documentsRoot: tempDir(), env: { NODE_ENV: 'test' } });
    expect(await attachMcp(runtime, { report: () => {} })).toBeUndefined();
    expect(names(runtime.pool)).not.toContain('use_mcp_tool');
    expect(names(runtime.pool)).toContain('load_mcp_documentation');
  });

  it('puts server tools after the built-ins, sorted, and offers the MCP tools', async () => {
    const { runtime } = await session();
    const pool = names(runtime.pool);
    const firstExternal = pool.findIndex((n) => n.startsWith('bad__'));
    expect(pool.slice(0, firstExternal).every((n) => !n.includes('__'))).toBe(true);
    const external = pool.slice(firstExternal);
    expect(external).toEqual([...external].sort());
    expect(external).toContain('bad__echo');
    for (const tool of ['use_mcp_tool', 'access_mcp_resource', 'list_mcp_resources', 'load_mcp']) {
      expect(pool).toContain(tool);
    }
  });

  it('runs an autoApproved tool without asking', async () => {
    const { runtime } = await session();
    expect(await runtime.runTool('bad__echo', { text: 'hi' })).toEqual({ isError: false, text: 'hi' });
  });

  it('refuses other MCP tools headless, naming the approval category', async () => {
    const { runtime } = await session();
    const result = await runtime.runTool('bad__pid', {});
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/bad__pid needs approval \(category mcp\).*--approve mcp/);
  });

  it('runs them with --approve mcp', async () => {
    const { runtime } = await session({ approve: ['mcp'] });
    expect((await runtime.runTool('bad__pid', {})).text).toMatch(/^\d+$/);
  });

  it('removes a server’s tools with a deny rule server__*', async () => {
    const { runtime } = await session({ settings: { permissions: { deny: ['bad__*'] } } });
    expect(names(runtime.pool).some((n) => n.startsWith('bad__'))).toBe(false);
    const viaGeneric = await runtime.runTool('use_mcp_tool', {
      server_name: 'bad',
      tool_name: 'echo',
      arguments: {},
    });
    expect(viaGeneric.text).toMatch(/denied by rule bad__\*/);
  });

  it('budgets a huge result: saved whole to a file, previewed for the model', async () => {
    const { runtime } = await session({ approve: ['mcp'] });
    const result = await runtime.runTool('bad__big', { chars: 150_000 });
    expect(result.savedPath).toBeDefined();
    expect(readFileSync(result.savedPath!, 'utf8')).toHaveLength(150_000);
    expect(result.text.length).toBeLessThan(101_000);
    expect(result.text).toMatch(/over this tool's budget of 100,000/);
  });

  it('passes images through', async () => {
    const { runtime } = await session({ approve: ['mcp'] });
    const result = await runtime.runTool('bad__image', {});
    expect(result.images?.[0].mediaType).toBe('image/png');
  });
});

describe('use_mcp_tool, load_mcp, list_mcp_resources, access_mcp_resource', () => {
  it('use_mcp_tool calls a tool, judged as the tool itself (autoApprove)', async () => {
    const { runtime } = await session();
    const call = { server_name: 'bad', tool_name: 'echo', arguments: { text: 'generic' } };
    expect((await runtime.runTool('use_mcp_tool', call)).text).toBe('generic');
    const asText = { ...call, arguments: '{"text": "as a string"}' };
    expect((await runtime.runTool('use_mcp_tool', asText)).text).toBe('as a string');
    const other = await runtime.runTool('use_mcp_tool', { server_name: 'bad', tool_name: 'pid' });
    expect(other.text).toMatch(/needs approval \(category mcp\)/);
  });

  it('use_mcp_tool names what exists for an unknown server or tool', async () => {
    const { runtime } = await session();
    const server = await runtime.runTool('use_mcp_tool', { server_name: 'nope', tool_name: 'echo' });
    expect(server).toMatchObject({
      isError: true,
      text: 'Unknown MCP server "nope". Configured servers: bad (connected).',
    });
    const tool = await runtime.runTool('use_mcp_tool', { server_name: 'bad', tool_name: 'nope' });
    expect(tool.text).toMatch(/MCP server "bad" has no tool "nope". Its tools: echo, pid, crash, hang/);
  });

  it('use_mcp_tool gives a crash an error result', async () => {
    const { runtime } = await session({ approve: ['mcp'] });
    const result = await runtime.runTool('use_mcp_tool', { server_name: 'bad', tool_name: 'crash' });
    expect(result).toMatchObject({
      isError: true,
      text: expect.stringMatching(/exited while running tool crash/),
    });
    expect(
      (
        await runtime.runTool('use_mcp_tool', {
          server_name: 'bad',
          tool_name: 'echo',
          arguments: { text: 'ok' },
        })
      ).text,
    ).toBe('ok');
  });

  it('load_mcp shows a tool’s description and schema without running it', async () => {
    const { runtime } = await session();
    const result = await runtime.runTool('load_mcp', { server_name: 'bad', tool_name: 'weather.lookup' });
    expect(result.text).toContain('Name in the tool list: bad__weather_lookup');
    expect(result.text).toContain('A dotted name: forecast for a city.');
    expect(result.text).toContain('"type": "object"');
  });

  it('lists resources and reads one (category mcp)', async () => {
    const { runtime } = await session({ approve: ['mcp'] });
    expect((await runtime.runTool('list_mcp_resources', {})).text).toContain(
      '- test://hello  hello (text/plain)',
    );
    const read = await runtime.runTool('access_mcp_resource', { server_name: 'bad', uri: 'test://hello' });
    expect(read.text).toBe('[resource test://hello (text/plain)]\ncontents of test://hello');
  });
});

describe('tool_search (feature tool_search)', () => {
  it('defers MCP tools: only their names, in tool_search’s description', async () => {
    const { runtime } = await session({ features: ['tool_search'] });
    expect(names(runtime.pool).some((n) => n.startsWith('bad__'))).toBe(false);
    const search = runtime.pool.find((t) => t.name === 'tool_search')!;
    expect(search.description).toMatch(/\nMCP tools: .*bad__echo/);
  });

  it('lists MCP tools only while some are deferred', async () => {
    const mcpLine = (pool: readonly { name: string; description: string }[]) =>
      pool.find((t) => t.name === 'tool_search')?.description.includes('\nMCP tools: ');
    const noServer = createRuntime({
      cwd: tempDir(),
      documentsRoot: tempDir(),
      env: { NODE_ENV: 'test' },
      features: ['tool_search'],
    });
    expect(mcpLine(noServer.pool)).toBe(false);
    // A configured server that failed has no tools: nothing to search.
    const { runtime: failed } = await session(
      { features: ['tool_search'] },
      { args: [MISBEHAVING_SERVER, '--exit-at-start'] },
    );
    expect(names(failed.pool)).toContain('use_mcp_tool');
    expect(mcpLine(failed.pool)).toBe(false);
    const { runtime: up } = await session({ features: ['tool_search'] });
    expect(mcpLine(up.pool)).toBe(true);
  });

  it('leaves MCP tools in the pool without the feature, while it still defers rare built-ins', async () => {
    const { runtime } = await session({});
    expect(names(runtime.pool)).toContain('bad__echo');
    expect(names(runtime.definedTools)).toContain('bad__echo');
    expect(names(runtime.pool)).toContain('tool_search');
  });

  it('loads tools by select:name for the rest of the session', async () => {
    const { runtime } = await session({ features: ['tool_search'] });
    const result = await runtime.runTool('tool_search', { query: 'select:bad__echo,bad__pid' });
    expect(result.text).toContain('## bad__echo (loaded)');
    expect(result.text).toContain('Input schema: {"type":"object","properties":{"text":{"type":"string"}}');
    expect(names(runtime.pool)).toEqual(expect.arrayContaining(['bad__echo', 'bad__pid']));
    expect(names(runtime.pool)).not.toContain('bad__crash');
    expect((await runtime.runTool('bad__echo', { text: 'loaded' })).text).toBe('loaded');
  });

  it('finds tools by keyword', async () => {
    const { runtime } = await session({ features: ['tool_search'] });
    const result = await runtime.runTool('tool_search', { query: 'forecast city', max_results: 1 });
    expect(result.text).toMatch(/^## bad__weather_lookup \(loaded\)/);
    expect((await runtime.runTool('tool_search', { query: 'zebra' })).text).toMatch(
      /No tool matches "zebra"/,
    );
  });
});
