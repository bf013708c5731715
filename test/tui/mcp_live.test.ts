import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LIVELY_SERVER } from '../support/mcp_servers/peers.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { type AppUnderTest, KEYS, renderApp } from './support/app_harness.js';

let app: AppUnderTest | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** Polls until `condition` holds, a bounded number of times. */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 1_000 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 30));
  expect(condition()).toBe(true);
}

const lively = (cancelFile: string, extra: Record<string, unknown> = {}) => ({
  lively: {
    command: process.execPath,
    args: [LIVELY_SERVER, '--cancel-file', cancelFile],
    autoApprove: ['slow', 'log'],
    ...extra,
  },
});

describe('a live MCP server in the UI', () => {
  it('shows a call’s progress under it, and Esc cancels the call on the server', async () => {
    const cancelFile = join(tempDir(), 'cancelled');
    app = await renderApp([{ toolCalls: [{ name: 'lively__slow', input: {} }] }, { text: 'Stopped.' }], {
      mcpServers: lively(cancelFile),
    });
    const a = app;
    await until(() => a.session.runtime.pool.some((t) => t.name === 'lively__slow'));
    await app.submit('go slowly');
    await app.waitFor('3/3 step 3');
    app.write(KEYS.escape);
    await until(() => existsSync(cancelFile));
    expect(readFileSync(cancelFile, 'utf8').trim()).toMatch(/^\d+$/);
  });

  it('/mcp shows the latest messages a server logged', async () => {
    app = await renderApp([{ toolCalls: [{ name: 'lively__log', input: {} }] }, { text: 'Logged it.' }], {
      mcpServers: lively(join(tempDir(), 'cancelled'), { logLevel: 'info' }),
    });
    const a = app;
    await until(() => a.session.runtime.pool.some((t) => t.name === 'lively__log'));
    await app.submit('log something');
    await app.waitFor('Logged it.');
    await app.submit('/mcp');
    const shown = await app.waitFor('error lively: a error message');
    expect(shown).toMatch(
      /info lively: a info message\n\s+warning lively: a warning message\n\s+error lively/,
    );
    expect(shown).not.toMatch(/debug lively/);
  });

  it('runs a server prompt as /server:prompt args, and attaches an @server:uri resource', async () => {
    app = await renderApp([{ text: 'Hello, Ada.' }, { text: 'Milk noted.' }], {
      mcpServers: lively(join(tempDir(), 'cancelled')),
    });
    const a = app;
    await until(() => a.session.runtime.pool.some((t) => t.name === 'lively__log'));
    await app.submit('/lively:greet Ada mood=warmly');
    await app.waitFor('Hello, Ada.');
    expect(app.requests()[0].lastUserText).toBe('Say hello to Ada, warmly.');

    await app.submit('/lively:greet');
    await app.waitFor('/lively:greet needs name (it takes name=… [mood=…])');
    await app.submit('/lively:nope');
    await app.waitFor('MCP server "lively" has no prompt "nope". Its prompts: /lively:greet.');

    await app.submit('what do @lively:lively://notes say?');
    await app.waitFor('Milk noted.');
    expect(app.frame()).toContain('Attached lively:lively://notes');
    expect(app.requests()[1].lastUserText).toBe(
      'what do @lively:lively://notes say?\n\nAttached:\n<resource server="lively" uri="lively://notes">\n[resource lively://notes (text/plain)]\nThe notes say: remember the milk.\n</resource>',
    );
  });
});
