import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { latheAsync } from '../support/cli.js';
import { tempDir } from '../support/runtime_fixtures.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/lsp/ts/', import.meta.url));

/** Processes whose environment holds `marker` (what a lathe run passes on to the servers it starts). */
function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').includes(marker)) found.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

describe('the built command with language servers', () => {
  it('lathe tool find_references answers and leaves no server process behind', async () => {
    const workspace = tempDir('lathe-lsp-cli-');
    cpSync(FIXTURE, workspace, { recursive: true });
    const marker = `LATHE_LSP_STRAY_CHECK=${process.pid}-${Date.now()}`;
    const [key, value] = marker.split('=');
    const input = JSON.stringify({ path: 'src/greeter.ts', symbol: 'Greeter.greet' });
    const r = await latheAsync(['tool', 'find_references', '--cwd', workspace, '--input', input], {
      env: { LATHE_HOME: tempDir('lathe-home-'), [key]: value },
    });
    expect(r.stdout, r.stderr).toContain('4 references to greet:\nsrc/app.ts\n');
    expect(r.code).toBe(0);
    expect(processesWith(marker)).toEqual([]);
  }, 90_000);

  it('lathe lsp status lists each server: found or not, command, version, state', async () => {
    const r = await latheAsync(['lsp', 'status', '--cwd', tempDir()], {
      env: { LATHE_HOME: tempDir('lathe-home-') },
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^typescript \(typescript, typescriptreact, javascript, javascriptreact\): found\n {2}command: .*typescript-language-server\/lib\/cli\.mjs --stdio\n {2}version: typescript-language-server 5\.\d+\.\d+, typescript 6\.\d+\.\d+\n {2}state: not started\n/,
    );
    expect(r.stdout).toMatch(
      /\npyright \(python\): found\n {2}command: .*langserver\.index\.js --stdio\n {2}version: pyright 1\.1\.\d+\n/,
    );
    expect(r.stdout).toMatch(/\ngopls \(go\): (found|not found)\n/);
    expect(r.stdout).toContain('diagnostics after edits: on');
  });
});
