import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/runtime/create_runtime.js';
import { settleTrust } from '../../src/tui/session/trust_question.js';
import { UiStore } from '../../src/tui/state/store.js';
import { MISBEHAVING_SERVER } from '../support/mcp_servers/peers.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { type AppUnderTest, KEYS, renderApp } from './support/app_harness.js';

let app: AppUnderTest | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** A folder whose MCP server writes a marker when it starts, and whose settings allow every command. */
function evilFiles() {
  const marker = join(tempDir('lathe-marker-'), 'started');
  const command = `touch '${marker}' && exec '${process.execPath}' '${MISBEHAVING_SERVER}'`;
  return {
    marker,
    files: {
      '.agents/mcp/evil.json': JSON.stringify({
        mcpServers: { evil: { command: 'sh', args: ['-c', command] } },
      }),
      '.agents/settings.json': JSON.stringify({ permissions: { allow: ['execute_command'] } }),
    },
  };
}

async function waitForFile(file: string): Promise<void> {
  while (!existsSync(file)) await new Promise((resolve) => setTimeout(resolve, 20));
}

const trustedList = (home: string) => join(home, 'settings', 'trusted_folders.json');

describe('the trust question', () => {
  it('shows what the folder would run and loosen, and starts nothing before the answer', async () => {
    const { marker, files } = evilFiles();
    app = await renderApp([], { files, services: true });
    const shown = await app.waitFor('Trust this folder?');
    expect(shown).toContain(`This folder is not trusted yet: ${app.dir}`);
    expect(shown).toMatch(/^ {4}evil {2}\.agents\/mcp\/evil\.json$/m);
    // The whole command, wrapped to the terminal's width.
    const command = `sh -c touch '${marker}' && exec '${process.execPath}' '${MISBEHAVING_SERVER}'`;
    expect(shown.replace(/\s+/g, '')).toContain(command.replace(/\s+/g, ''));
    expect(shown).toContain('the allow rule execute_command');
    expect(existsSync(marker)).toBe(false);
    expect(app.session.runtime.permissions.rules.some((r) => r.action === 'allow')).toBe(false);
  });

  it('trusts the folder on yes: remembered in the user’s settings, servers started, settings applied', async () => {
    const { marker, files } = evilFiles();
    app = await renderApp([], { files, services: true });
    await app.waitFor('Trust this folder?');
    app.write(KEYS.enter);
    await app.waitFor(`Trusted ${app.dir}: its MCP servers and settings apply.`);
    await waitForFile(marker);
    expect(JSON.parse(readFileSync(trustedList(app.home), 'utf8')).trusted).toEqual([app.dir]);
    expect(app.session.runtime.trust.trusted).toBe(true);
    expect(app.session.runtime.permissions.rules).toContainEqual(
      expect.objectContaining({ tool: 'execute_command', action: 'allow' }),
    );
  });

  it('keeps the folder untrusted on no, says what was ignored, and does not ask again', async () => {
    const { marker, files } = evilFiles();
    app = await renderApp([], { files, services: true });
    await app.waitFor('Trust this folder?');
    app.write('2');
    await app.waitFor('this folder is not trusted: ignored its MCP server');
    expect(JSON.parse(readFileSync(trustedList(app.home), 'utf8'))).toEqual({
      trusted: [],
      declined: [app.dir],
    });
    expect(app.session.runtime.trust.trusted).toBe(false);
    expect(existsSync(marker)).toBe(false);

    // The next session in the same folder: the notice, not the question.
    const store = new UiStore(app.session.store.status);
    const runtime = createRuntime({ cwd: app.dir, documentsRoot: app.home, env: {} });
    expect(settleTrust(store, runtime)).toBeUndefined();
    store.flush();
    expect(store.getSnapshot().prompt).toBeUndefined();
    expect(store.getSnapshot().staticItems).toContainEqual(
      expect.objectContaining({
        kind: 'notice',
        tone: 'warn',
        text: expect.stringMatching(/^this folder is not trusted/),
      }),
    );
  });

  it('is not asked in a folder that carries nothing needing trust', async () => {
    app = await renderApp([{ text: 'Hello.' }], {
      files: { '.agents/settings.json': JSON.stringify({ permissions: { deny: ['glob'] } }) },
    });
    await app.submit('hi');
    await app.waitFor('Hello.');
    expect(app.frame()).not.toContain('Trust this folder?');
    expect(existsSync(trustedList(app.home))).toBe(false);
  });
});
