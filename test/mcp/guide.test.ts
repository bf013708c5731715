import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { McpHub } from '../../src/mcp/hub.js';
import { createRuntime } from '../../src/runtime/create_runtime.js';
import { EXAMPLE_SERVER } from '../../src/tools/mcp/mcp_guide.js';
import { serverConfig } from '../support/mcp_servers/peers.js';
import { tempDir } from '../support/runtime_fixtures.js';

const NODE_MODULES = fileURLToPath(new URL('../../node_modules', import.meta.url));

describe('load_mcp_documentation', () => {
  it('returns the guide with its example server and how to add it', async () => {
    const runtime = createRuntime({ cwd: tempDir(), documentsRoot: tempDir(), env: { NODE_ENV: 'test' } });
    const result = await runtime.runTool('load_mcp_documentation', {});
    expect(result.isError).toBe(false);
    expect(result.text).toContain(EXAMPLE_SERVER);
    expect(result.text).toContain('lathe mcp add units -- node /absolute/path/to/units-server/server.mjs');
  });

  it('has an example server that works as written', async () => {
    const dir = tempDir('units-server-');
    writeFileSync(join(dir, 'server.mjs'), EXAMPLE_SERVER);
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    symlinkSync(NODE_MODULES, join(dir, 'node_modules'));
    const hub = new McpHub([
      serverConfig('units', { command: process.execPath, args: [join(dir, 'server.mjs')] }),
    ]);
    try {
      await hub.connectAll();
      const signal = new AbortController().signal;
      const converted = await hub.callTool(
        'units',
        'convert_temperature',
        { value: 100, to: 'F' },
        { signal },
      );
      expect(converted).toEqual({ text: '212.0 °F' });
      expect((await hub.readResource('units', 'units://table', signal)).text).toContain('100 °C = 212 °F');
      expect(hub.servers()[0].tools[0]).toMatchObject({ name: 'units__convert_temperature', readOnly: true });
    } finally {
      await hub.close();
    }
  });
});
