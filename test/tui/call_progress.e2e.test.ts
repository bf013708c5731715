import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'vitest';
import { globalSettingsPath } from '../../src/config/paths.js';
import { scriptedServerSettings } from '../support/lsp/scripted_server.js';
import { needs } from '../support/required_programs.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { latheStarter, repo } from './support/lathe_terminal.js';

// The built `lathe` in a real terminal (tmux): a call held by a language server that is slow to
// start says so under its line.

const start = latheStarter();

needs('tmux')('a call waiting on a language server, in a terminal', () => {
  it('shows `starting fake…` under the running call until the server answers', async () => {
    const release = join(tempDir('lathe-release-'), 'go');
    const home = tempDir('lathe-home-');
    mkdirSync(join(home, 'settings'), { recursive: true });
    const lsp = scriptedServerSettings('--start-after', release);
    writeFileSync(globalSettingsPath(home), JSON.stringify({ lsp }));
    const { term } = await start(
      [
        { toolCalls: [{ name: 'lsp', input: { operation: 'hover', path: 'a.fk', line: 1, column: 7 } }] },
        { text: 'Hovered it.' },
      ],
      { dir: repo({ 'a.fk': 'class Greeter\n' }), home, env: { LATHE_FEATURES: 'lsp' } },
    );
    term.type('hover it');
    term.press('Enter');
    await term.waitFor(/Code intelligence hover a\.fk {2}\d+\.\ds\n\s+└ starting fake…/, { visible: true });
    writeFileSync(release, '');
    await term.waitFor(/✓ Code intelligence hover a\.fk[^\n]*\n\s+└ hover at 1:7/);
    await term.waitFor('Hovered it.');
  }, 60_000);
});
