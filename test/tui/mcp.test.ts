import { afterEach, describe, expect, it } from 'vitest';
import { MISBEHAVING_SERVER } from '../support/mcp_servers/peers.js';
import { startProtectedServer } from '../support/oauth/protected_server.js';
import { type AppUnderTest, renderApp } from './support/app_harness.js';

let app: AppUnderTest | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const stdio = (...args: string[]) => ({ command: process.execPath, args: [MISBEHAVING_SERVER, ...args] });

/** Polls until `condition` holds, a bounded number of times. */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 1_000 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 30));
  expect(condition()).toBe(true);
}

describe('MCP servers in the UI', () => {
  it('answer a prompt while a server never answers; /mcp shows each server’s state and tools', async () => {
    app = await renderApp([{ text: 'Answered at once.' }], {
      mcpServers: {
        good: stdio(),
        silent: stdio('--silent'),
        down: stdio('--exit-at-start'),
        off: { ...stdio(), disabled: true },
      },
    });
    // The prompt does not wait for the servers.
    await app.submit('hello');
    await app.waitFor('Answered at once.');

    const a = app;
    await until(() => a.session.runtime.pool.some((t) => t.name === 'good__echo'));
    await until(() => a.session.runtime.mcp?.servers().find((s) => s.name === 'down')?.state === 'failed');
    await app.submit('/mcp');
    const shown = await app.waitFor('MCP servers (4)');
    expect(shown).toMatch(/good\s+connected, 10 tools\n\s+good__echo, good__pid, good__crash/);
    expect(shown).toMatch(/silent\s+connecting/);
    expect(shown).toMatch(/down\s+failed: the server closed the connection; it said: misbehaving: missing/);
    expect(shown).toMatch(/off\s+disabled/);
  });

  it('/mcp shows the auth state of a server behind OAuth and the command that logs in', async () => {
    const server = await startProtectedServer();
    try {
      app = await renderApp([], { mcpServers: { prot: { type: 'http', url: server.url } } });
      const a = app;
      await until(() => a.session.runtime.mcp?.servers()[0]?.state === 'failed');
      await app.submit('/mcp');
      const shown = await app.waitFor('MCP servers (1)');
      expect(shown).toMatch(
        /prot\s+failed: needs a login: run `lathe mcp login prot`\s+\(auth: needs login\)/,
      );
      // The UI never opens a browser by itself.
      expect(server.authorizeQueries).toHaveLength(0);
    } finally {
      await server.stop();
    }
  });

  it('/mcp says when no server runs', async () => {
    app = await renderApp([]);
    await app.submit('/mcp');
    await app.waitFor('No MCP server is running here');
  });
});
