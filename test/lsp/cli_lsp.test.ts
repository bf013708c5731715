import { chmodSync, cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { latheAsync } from '../support/cli.js';
import { closeFakeServers, runHeadless } from '../support/headless_run.js';
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
  afterAll(() => closeFakeServers());

  it('lathe -p with one reply in a TypeScript project answers and leaves no server behind', async () => {
    const workspace = tempDir('lathe-lsp-headless-');
    cpSync(FIXTURE, workspace, { recursive: true });
    const marker = `LATHE_LSP_HEADLESS_CHECK=${process.pid}-${Date.now()}`;
    const [key, value] = marker.split('=');
    const r = await runHeadless(workspace, [{ text: 'Hello.' }], [], { env: { [key]: value } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.result).toBe('Hello.');
    expect(processesWith(marker)).toEqual([]);
  }, 90_000);

  it('lathe lsp status and lathe doctor list a server on PATH that does not start as not found', async () => {
    const bin = tempDir('lathe-rustup-');
    writeFileSync(
      join(bin, 'rust-analyzer'),
      "#!/bin/sh\necho \"error: Unknown binary 'rust-analyzer' in official toolchain 'stable'.\" >&2\nexit 1\n",
    );
    chmodSync(join(bin, 'rust-analyzer'), 0o755);
    const env = { LATHE_HOME: tempDir('lathe-home-'), PATH: `${bin}:${process.env.PATH}` };
    const status = await latheAsync(['lsp', 'status', '--cwd', tempDir()], { env });
    expect(status.stdout).toContain(
      `\nrust-analyzer (rust): not found\n  command: ${bin}/rust-analyzer\n  state: unavailable (rust-analyzer --version failed: error: Unknown binary 'rust-analyzer' in official toolchain 'stable'.)\n  install: rustup component add rust-analyzer\n`,
    );
    const doctor = await latheAsync(['doctor', '--cwd', tempDir()], { env });
    expect(doctor.stdout).toMatch(
      /\n✗ language server rust-analyzer +rust-analyzer --version failed: error: Unknown binary .* — rustup component add rust-analyzer\n/,
    );
    expect(doctor.stdout).toMatch(/\n✗ language servers +not on PATH: .*gopls.*lua-language-server/);
  }, 90_000);

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
