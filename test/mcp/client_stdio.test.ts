import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpHub } from '../../src/mcp/hub.js';
import { inputJsonSchema } from '../../src/tool/definition.js';
import { everythingStdio, misbehaving, serverConfig } from '../support/mcp_servers/peers.js';
import { tempDir } from '../support/runtime_fixtures.js';

const signal = () => new AbortController().signal;
const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('MCP client over stdio: server-everything', () => {
  let hub: McpHub;
  beforeAll(async () => {
    hub = new McpHub([everythingStdio(), everythingStdio('short', { timeout: 0.5 })]);
    await hub.connectAll();
  });
  afterAll(() => hub.close());

  it('connects and lists its tools as server__tool after a parallel start', () => {
    const names = hub.tools().map((t) => t.name);
    expect(names).toContain('everything__echo');
    expect(names).toContain('everything__get-tiny-image');
    expect(hub.servers().map((s) => s.state)).toEqual(['connected', 'connected']);
  });

  it('passes the tools’ JSON Schemas through', () => {
    const sum = hub.tools().find((t) => t.name === 'everything__get-sum')!;
    const schema = inputJsonSchema(sum);
    expect(schema).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
    });
    expect(schema.required).toEqual(['a', 'b']);
  });

  it('calls a tool and maps its text', async () => {
    expect(await hub.callTool('everything', 'echo', { message: 'hello' }, { signal: signal() })).toEqual({
      text: 'Echo: hello',
    });
    const sum = await hub.callTool('everything', 'get-sum', { a: 2, b: 3 }, { signal: signal() });
    expect(sum.text).toContain('5');
  });

  it('maps an image result to an image block', async () => {
    const out = await hub.callTool('everything', 'get-tiny-image', {}, { signal: signal() });
    expect(out.images?.[0].mediaType).toBe('image/png');
    expect(out.images?.[0].data.length).toBeGreaterThan(100);
    expect(out.text).toContain('[image image/png attached]');
  });

  it('maps an embedded resource in a tool result', async () => {
    const out = await hub.callTool(
      'everything',
      'get-resource-reference',
      { resourceType: 'Text', resourceId: 3 },
      { signal: signal() },
    );
    expect(out.isError).toBeUndefined();
    expect(out.text).toMatch(/\[resource demo:\/\/resource\/dynamic\/text\/3/);
  });

  it('returns the server’s validation error as an error result', async () => {
    const out = await hub.callTool('everything', 'get-sum', { a: 'two' }, { signal: signal() });
    expect(out.isError).toBe(true);
    expect(out.text).toMatch(/a/);
  });

  it('lists and reads resources', async () => {
    const listing = await hub.listResources('everything', signal());
    expect(listing.text).toContain('demo://resource/static/document/');
    expect(listing.text).toContain('demo://resource/dynamic/text/{resourceId}');
    const read = await hub.readResource('everything', 'demo://resource/dynamic/text/1', signal());
    expect(read.text).toMatch(
      /^\[resource demo:\/\/resource\/dynamic\/text\/1 \(text\/plain\)\]\nResource 1/,
    );
  });

  it('cancels a long-running tool at its timeout, and the server keeps working', async () => {
    const out = await hub.callTool(
      'short',
      'trigger-long-running-operation',
      { duration: 10, steps: 10 },
      { signal: signal() },
    );
    expect(out.isError).toBe(true);
    expect(out.text).toMatch(
      /did not answer tool trigger-long-running-operation within 0\.5 s; the request was cancelled/,
    );
    expect((await hub.callTool('short', 'echo', { message: 'still here' }, { signal: signal() })).text).toBe(
      'Echo: still here',
    );
  });

  it('reports progress of a long-running tool', async () => {
    const seen: string[] = [];
    const out = await hub.callTool(
      'everything',
      'trigger-long-running-operation',
      { duration: 0.3, steps: 3 },
      { signal: signal(), progress: (m) => seen.push(m) },
    );
    expect(out.text).toMatch(/Long running operation completed/);
    // The last notification may arrive after the result, when nobody listens any more.
    expect(seen.slice(0, 2)).toEqual(['1/3', '2/3']);
  });

  it('cancels a call when its signal aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const out = await hub.callTool(
      'everything',
      'trigger-long-running-operation',
      { duration: 10, steps: 10 },
      { signal: controller.signal },
    );
    expect(out).toMatchObject({ isError: true, text: expect.stringMatching(/was cancelled/) });
  });
});

describe('MCP client over stdio: a server that misbehaves', () => {
  let hub: McpHub;
  const reports: string[] = [];
  const fixed = join(tempDir(), 'fixed');
  beforeAll(async () => {
    hub = new McpHub(
      [
        misbehaving('bad', { timeout: 1 }),
        misbehaving('broken', { args: [misbehaving().args[0], '--exit-at-start-unless', fixed] }),
        serverConfig('missing', { command: '/no/such/command' }),
        misbehaving('off', { disabled: true }),
      ],
      { onReport: (m) => reports.push(m) },
    );
    await hub.connectAll();
  });
  afterAll(() => hub.close());

  it('reports a server that fails to start in one line, and starts the others', () => {
    const states = Object.fromEntries(hub.servers().map((s) => [s.name, s.state]));
    expect(states).toEqual({ bad: 'connected', broken: 'failed', missing: 'failed', off: 'disabled' });
    const broken = reports.find((r) => r.includes('"broken"'))!;
    expect(broken).toMatch(/failed to connect: .*missing configuration file.*\(retried on next use\)/);
    expect(broken).not.toContain('\n');
    expect(reports.find((r) => r.includes('"missing"'))).toMatch(/command not found: \/no\/such\/command/);
  });

  it('retries a failed server on its next use', async () => {
    const before = await hub.callTool('broken', 'echo', { text: 'x' }, { signal: signal() });
    expect(before.isError).toBe(true);
    expect(before.text).toMatch(/MCP server "broken" is not available/);
    writeFileSync(fixed, '');
    const after = await hub.callTool('broken', 'echo', { text: 'now' }, { signal: signal() });
    expect(after).toEqual({ text: 'now' });
    expect(hub.tools().some((t) => t.name === 'broken__echo')).toBe(true);
  });

  it('sanitises tool names and cuts long ones to 64 characters', () => {
    const names = hub.servers()[0].tools.map((t) => t.name);
    expect(names).toContain('bad__weather_lookup');
    const long = names.find((n) => n.startsWith('bad__very_long'))!;
    expect(long).toHaveLength(64);
    expect(long).toMatch(/_[0-9a-f]{6}$/);
  });

  it('cancels a call to a hung server at its timeout', async () => {
    const out = await hub.callTool('bad', 'hang', {}, { signal: signal() });
    expect(out.text).toMatch(/did not answer tool hang within 1 s; the request was cancelled/);
  });

  it('gives a call to a crashing server an error result and restarts the server', async () => {
    const pid = Number((await hub.callTool('bad', 'pid', {}, { signal: signal() })).text);
    const out = await hub.callTool('bad', 'crash', {}, { signal: signal() });
    expect(out.isError).toBe(true);
    expect(out.text).toMatch(/MCP server "bad" exited while running tool crash; lathe restarts it/);
    expect(reports).toContain('MCP server "bad" exited; restarting it');
    const again = Number((await hub.callTool('bad', 'pid', {}, { signal: signal() })).text);
    expect(again).not.toBe(pid);
    expect(isAlive(pid)).toBe(false);
  });

  it('passes a tool’s own error result on as an error', async () => {
    expect(await hub.callTool('bad', 'fail', {}, { signal: signal() })).toEqual({
      isError: true,
      text: 'the lookup failed: no such city',
    });
  });

  it('names what exists when a server or tool is unknown', async () => {
    await expect(hub.findTool('nope', 'echo', signal())).rejects.toThrow(
      /Unknown MCP server "nope". Configured servers: bad \(connected\), broken/,
    );
    await expect(hub.findTool('bad', 'nope', signal())).rejects.toThrow(
      /MCP server "bad" has no tool "nope". Its tools: echo, pid, crash/,
    );
    await expect(hub.findTool('off', 'echo', signal())).rejects.toThrow(/"off" is disabled/);
  });

  it('ends every server process when closed', async () => {
    const pid = Number((await hub.callTool('bad', 'pid', {}, { signal: signal() })).text);
    await hub.close();
    expect(isAlive(pid)).toBe(false);
  });
});

describe('MCP client: closing while a server starts', () => {
  it('ends a server that has not finished its handshake', async () => {
    // `sleep` never answers the handshake: only closing the hub ends it.
    const hub = new McpHub([serverConfig('mute', { command: 'sleep', args: ['30'] })]);
    const connecting = hub.connectAll();
    await new Promise((resolve) => setTimeout(resolve, 200));
    // `sleep 30` outlasts the test's time: only the close can end the connect.
    await hub.close();
    await connecting;
    expect(hub.servers()[0].state).toBe('failed');
  });
});
