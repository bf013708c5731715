import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { globalMcpSettingsPath } from '../../src/config/paths.js';
import { closeFakeServers, runHeadless } from '../support/headless_run.js';
import { LIVELY_SERVER } from '../support/mcp_servers/peers.js';
import { tempDir } from '../support/runtime_fixtures.js';

afterEach(closeFakeServers);

/** A home whose global MCP file names the lively server. */
function homeWithLively(): string {
  const home = tempDir('lathe-home-');
  const file = globalMcpSettingsPath(home);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(
    file,
    JSON.stringify({ mcpServers: { lively: { command: process.execPath, args: [LIVELY_SERVER] } } }),
  );
  return home;
}

describe('a server prompt in a headless run', () => {
  it('sends /server:prompt args as the prompt’s messages', async () => {
    const run = await runHeadless(tempDir(), [{ text: 'Hello, Ada.' }], ['-p', '/lively:greet name=Ada'], {
      home: homeWithLively(),
    });
    expect(run.json?.result).toBe('Hello, Ada.');
    expect(run.requests[0].lastUserText).toBe('Say hello to Ada.');
  });

  it('stops with one line when the prompt’s required argument is missing', async () => {
    const run = await runHeadless(tempDir(), [{ text: 'unused' }], ['-p', '/lively:greet'], {
      home: homeWithLively(),
    });
    expect(run.code).not.toBe(0);
    expect(run.stderr.trim()).toBe('lathe: /lively:greet needs name (it takes name=… [mood=…])');
    expect(run.requests).toHaveLength(0);
  });
});
