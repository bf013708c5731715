import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LATHE_BIN, lathe } from '../support/cli.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { staticGraph } from '../support/static_graph.js';

describe('start-up cost', () => {
  it('loads Ink, React and the UI only for the interactive UI, never for other commands', () => {
    for (const entry of [
      'cli/main.ts',
      'cli/program.ts',
      'cli/headless/run.ts',
      'cli/commands/tools.ts',
      'runtime/create_runtime.ts',
    ]) {
      const { files, packages } = staticGraph(entry);
      expect(
        files.filter((f) => f.startsWith('tui/')),
        entry,
      ).toEqual([]);
      expect(
        packages.filter((p) => p === 'ink' || p === 'react'),
        entry,
      ).toEqual([]);
    }
  });

  it('loads jsonc-parser only to read a settings file that is there', () => {
    const home = tempDir('lathe-home-');
    const cwd = tempDir('ws-');
    // NODE_DEBUG=module has Node name each CommonJS module it loads.
    const loadsParser = () => {
      const r = lathe(['tools'], { cwd, env: { LATHE_HOME: home, HOME: home, NODE_DEBUG: 'module' } });
      expect(r.code).toBe(0);
      return r.stderr.includes('/jsonc-parser/');
    };
    expect(loadsParser()).toBe(false);
    mkdirSync(join(home, 'settings'));
    writeFileSync(join(home, 'settings', 'settings.json'), '{\n  // lighter\n  "profile": "lite",\n}\n');
    expect(loadsParser()).toBe(true);
  });

  it('says the interactive UI needs a terminal when there is none', () => {
    const r = lathe([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the interactive UI needs a terminal');
  });

  it('builds its code as ASCII: one other character makes Node read a whole chunk as two-byte text', () => {
    const bin = dirname(LATHE_BIN);
    const wide = readdirSync(bin).filter(
      // Readability's word lists (loaded only by web_fetch) hold other scripts on purpose.
      (name) =>
        name.endsWith('.js') &&
        !name.startsWith('readability-') &&
        /[^\x00-\x7f]/.test(readFileSync(join(bin, name), 'latin1')),
    );
    expect(wide).toEqual([]);
  });

  it('holds the production build of React alone, whatever NODE_ENV says', () => {
    const bin = dirname(LATHE_BIN);
    // A warning only React's development reconciler has.
    const development = readdirSync(bin).filter((name) =>
      readFileSync(join(bin, name), 'utf8').includes('while rendering a different component'),
    );
    expect(development).toEqual([]);
  });
});
