import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, it } from 'vitest';
import { scriptedServerSettings } from '../support/lsp/scripted_server.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { type AppUnderTest, renderApp } from './support/app_harness.js';

let app: AppUnderTest | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const hover = (path: string) => ({ name: 'lsp', input: { operation: 'hover', path, line: 1, column: 7 } });

/** The app over `.fk` files whose scripted server answers its handshake once `release` exists. */
function heldServerApp(calls: Array<ReturnType<typeof hover>>, release: string) {
  return renderApp([{ toolCalls: calls }, { text: 'Hovered.' }], {
    files: { 'a.fk': 'class Greeter\n', 'b.fk': 'class Other\n' },
    features: ['lsp'],
    settings: { lsp: scriptedServerSettings('--start-after', release) },
  });
}

describe('what a running call waits for', () => {
  it('shows under the call while its language server starts, and goes with its result', async () => {
    const release = join(tempDir('lathe-release-'), 'go');
    app = await heldServerApp([hover('a.fk')], release);
    await app.submit('hover it');
    // The spinner stands where the mark will be; the call has run a second, so its wait shows.
    await app.waitFor(/Code intelligence hover a\.fk {2}\d+\.\ds\n\s+└ starting fake…/);
    writeFileSync(release, '');
    await app.waitFor(/✓ Code intelligence hover a\.fk[^\n]*\n\s+└ hover at 1:7/);
    await app.waitFor('Hovered.');
  }, 60_000);

  it('shows under a run of read-only calls, for the one still waiting', async () => {
    const release = join(tempDir('lathe-release-'), 'go');
    app = await heldServerApp([hover('a.fk'), hover('b.fk')], release);
    await app.submit('hover both');
    await app.waitFor(/Searching 2 patterns {2}\d+\.\ds\n\s+└ starting fake…/);
    writeFileSync(release, '');
    await app.waitFor('Hovered.');
  }, 60_000);
});
