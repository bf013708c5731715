import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chromiumPath } from '../../src/browser/launch.js';
import { tempDir } from '../support/runtime_fixtures.js';

/** A PATH folder holding `chromium` as the given script, and a program where the script points. */
function installed(script: (libdir: string) => string): { bin: string; program: string } {
  const root = tempDir('lathe-chromium-');
  const bin = join(root, 'bin');
  const libdir = join(root, 'lib', 'chromium');
  mkdirSync(bin, { recursive: true });
  mkdirSync(libdir, { recursive: true });
  const program = join(libdir, 'chromium');
  writeFileSync(program, '#!/bin/sh\necho program\n');
  chmodSync(program, 0o755);
  writeFileSync(join(bin, 'chromium'), script(libdir));
  chmodSync(join(bin, 'chromium'), 0o755);
  return { bin, program };
}

/** A launcher in the shape of Debian's: it sets APPNAME and LIBDIR, sources its settings, then `last`. */
const launcher = (libdir: string, last: string) =>
  `#!/bin/sh\n# Chromium launcher\nAPPNAME=chromium\nLIBDIR=${libdir}\nfor f in /etc/chromium.d/*; do . $f; done\n${last}\n`;
const EXEC = 'exec $LIBDIR/$APPNAME $CHROMIUM_FLAGS "$@"';
const parent = (libdir: string) => libdir.replace(/\/chromium$/, '');

describe('which Chromium is started', () => {
  it("starts the program behind Debian's launcher script, skipping the script's work", () => {
    const { bin } = installed((libdir) => launcher(parent(libdir), EXEC));
    expect(chromiumPath({}, { PATH: bin })).toBe(join(bin, '..', 'lib', 'chromium'));
  });

  it('keeps a script that does not exec a program it names', () => {
    const { bin } = installed((libdir) => launcher(parent(libdir), 'exec "$LIBDIR/other" "$@"'));
    expect(chromiumPath({}, { PATH: bin })).toBe(join(bin, 'chromium'));
  });

  it('keeps the launcher when the program it names cannot be run', () => {
    const { bin } = installed(() => launcher('/nonexistent/lib', EXEC));
    expect(chromiumPath({}, { PATH: bin })).toBe(join(bin, 'chromium'));
  });

  it("starts the program behind the headless shell's one-line launcher", () => {
    const { bin, program } = installed((libdir) => `#!/bin/sh -e\n\n${join(libdir, 'chromium')} "$@"\n`);
    expect(chromiumPath({}, { PATH: bin })).toBe(program);
  });

  it('keeps a one-line launcher that changes the arguments', () => {
    const { bin } = installed((libdir) => `#!/bin/sh\n${join(libdir, 'chromium')} --flag "$@"\n`);
    expect(chromiumPath({}, { PATH: bin })).toBe(join(bin, 'chromium'));
  });

  it('prefers a headless shell on PATH to the full browser', () => {
    const { bin } = installed((libdir) => launcher(parent(libdir), EXEC));
    const shell = join(bin, 'chromium-headless-shell');
    writeFileSync(shell, '\x7fELF');
    chmodSync(shell, 0o755);
    expect(chromiumPath({}, { PATH: bin })).toBe(shell);
  });

  it('starts browser.executablePath as it is, a launcher script too', () => {
    const { bin } = installed((libdir) => launcher(parent(libdir), EXEC));
    expect(chromiumPath({ executablePath: join(bin, 'chromium') }, { PATH: '' })).toBe(join(bin, 'chromium'));
  });
});
