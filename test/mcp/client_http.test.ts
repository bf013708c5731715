import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpHub } from '../../src/mcp/hub.js';
import { serverConfig, startEverythingHttp } from '../support/mcp_servers/peers.js';

const signal = () => new AbortController().signal;

describe('MCP client over streamable HTTP: server-everything', () => {
  let server: Awaited<ReturnType<typeof startEverythingHttp>>;
  let hub: McpHub;
  beforeAll(async () => {
    server = await startEverythingHttp();
    hub = new McpHub([
      serverConfig('web', { type: 'streamableHttp', url: server.url }),
      serverConfig('short', { type: 'http', url: server.url, timeout: 0.5 }),
    ]);
    await hub.connectAll();
  });
  afterAll(async () => {
    await hub.close();
    await server.stop();
  });

  it('lists the tools', () => {
    expect(hub.servers().map((s) => s.state)).toEqual(['connected', 'connected']);
    expect(hub.tools().map((t) => t.name)).toContain('web__get-sum');
  });

  it('calls tools, images included', async () => {
    expect((await hub.callTool('web', 'echo', { message: 'over http' }, { signal: signal() })).text).toBe(
      'Echo: over http',
    );
    const image = await hub.callTool('web', 'get-tiny-image', {}, { signal: signal() });
    expect(image.images?.[0].mediaType).toBe('image/png');
  });

  it('reads a resource', async () => {
    const read = await hub.readResource('web', 'demo://resource/dynamic/blob/2', signal());
    // A text/plain blob: base64 on the wire, decoded for the model.
    expect(read.text).toMatch(
      /^\[resource demo:\/\/resource\/dynamic\/blob\/2 \(text\/plain\)\]\nResource 2/,
    );
  });

  it('cancels a long-running tool at its timeout', async () => {
    const out = await hub.callTool(
      'short',
      'trigger-long-running-operation',
      { duration: 10, steps: 5 },
      {
        signal: signal(),
      },
    );
    expect(out.text).toMatch(
      /did not answer tool trigger-long-running-operation within 0\.5 s; the request was cancelled/,
    );
  });

  it('reconnects on the next use after the server went away and came back', async () => {
    await server.stop();
    const down = await hub.callTool('web', 'echo', { message: 'x' }, { signal: signal() });
    expect(down.isError).toBe(true);
    expect(down.text).toMatch(
      /MCP server "web" could not be reached .*reconnects on the next use|not available/,
    );
    server = await startEverythingHttp('streamableHttp', server.port);
    expect((await hub.callTool('web', 'echo', { message: 'back' }, { signal: signal() })).text).toBe(
      'Echo: back',
    );
  });
});

describe('MCP client over SSE: server-everything', () => {
  it('connects, lists and calls', async () => {
    const server = await startEverythingHttp('sse');
    const hub = new McpHub([serverConfig('old', { type: 'sse', url: server.url })]);
    try {
      await hub.connectAll();
      expect(hub.servers()[0].state).toBe('connected');
      expect((await hub.callTool('old', 'echo', { message: 'sse' }, { signal: signal() })).text).toBe(
        'Echo: sse',
      );
    } finally {
      await hub.close();
      await server.stop();
    }
  });
});
