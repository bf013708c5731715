import { chmodSync, cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../src/runtime/create_runtime.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { expectGolden } from './golden.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/lsp/ts/', import.meta.url));
const GOLDEN = fileURLToPath(new URL('../fixtures/lsp/golden/', import.meta.url));

/** typescript-language-server, as lathe bundles it, on a copy of the fixture project: one server for the file. */
describe('typescript-language-server on the fixture project', () => {
  let workspace: string;
  let runtime: Runtime;
  const read = (path: string) => readFileSync(join(workspace, path), 'utf8');

  beforeAll(() => {
    workspace = tempDir('lathe-lsp-ts-');
    cpSync(FIXTURE, workspace, { recursive: true });
    runtime = createRuntime({
      cwd: workspace,
      documentsRoot: tempDir('lathe-home-'),
      features: ['lsp'],
      yolo: true,
      env: {},
    });
  });
  afterAll(() => runtime.dispose());

  it('finds the definition of a call, as the golden file has it', async () => {
    const result = await runtime.runTool('lsp', {
      operation: 'definition',
      path: 'src/app.ts',
      anchor: 'makeGreeter()',
    });
    expect(result.isError, result.text).toBe(false);
    expectGolden('ts-definition.txt', result.text);
  }, 90_000);

  it('finds the references of a method across files, as the golden file has them', async () => {
    const result = await runtime.runTool('find_references', {
      path: 'src/greeter.ts',
      symbol: 'Greeter.greet',
    });
    expectGolden('ts-references.txt', result.text);
  }, 60_000);

  it('gives the hover of a method, as the golden file has it', async () => {
    const result = await runtime.runTool('lsp', {
      operation: 'hover',
      path: 'src/greeter.ts',
      line: 8,
      column: 3,
    });
    expectGolden('ts-hover.txt', result.text);
  }, 60_000);

  it('reports a type error an edit introduces, and clean after the fix', async () => {
    await runtime.runTool('read_file', { path: 'src/util.ts' });
    const broken = await runtime.runTool('edit_file', {
      path: 'src/util.ts',
      old_string: 'return text.toUpperCase();',
      new_string: 'return text.length;',
    });
    expect(broken.text).toContain(
      "\ndiagnostics: 1 error\n  src/util.ts:4:3 error TS2322: Type 'number' is not assignable to type 'string'.",
    );
    const fixed = await runtime.runTool('edit_file', {
      path: 'src/util.ts',
      old_string: 'return text.length;',
      new_string: 'return text.toUpperCase();',
    });
    expect(fixed.text).toMatch(/\ndiagnostics: clean$/);
  }, 60_000);

  it('refuses the whole rename when a file of it is read-only, changing nothing', async () => {
    const before = ['src/app.ts', 'src/greeter.ts', 'src/util.ts'].map(read);
    chmodSync(join(workspace, 'src/greeter.ts'), 0o444);
    try {
      const result = await runtime.runTool('rename', {
        path: 'src/app.ts',
        anchor: 'greet(',
        new_name: 'welcome',
      });
      expect(result.isError).toBe(true);
      expect(result.text).toBe('src/greeter.ts is read-only; nothing was renamed. Make it writable first.');
    } finally {
      chmodSync(join(workspace, 'src/greeter.ts'), 0o644);
    }
    expect(['src/app.ts', 'src/greeter.ts', 'src/util.ts'].map(read)).toEqual(before);
  }, 60_000);

  it('passes on an invalid new name as one line, changing nothing', async () => {
    const result = await runtime.runTool('rename', {
      path: 'src/greeter.ts',
      symbol: 'Greeter',
      new_name: '2fast',
    });
    expect(result.text).toBe('"2fast" is not a valid typescript identifier; nothing was renamed.');
  });

  it('renames across 3 files at once, keeping line endings, byte for byte as the server edits', async () => {
    // util.ts in CRLF: the rename keeps them.
    writeFileSync(join(workspace, 'src/util.ts'), read('src/util.ts').replace(/\n/g, '\r\n'));
    const preview = await runtime.runTool('rename', {
      path: 'src/greeter.ts',
      symbol: 'Greeter.greet',
      new_name: 'welcome',
      preview: true,
    });
    expect(preview.text).toMatch(/^Preview \(nothing written\): greet → welcome: 4 edits in 3 files\./);
    expect(read('src/greeter.ts')).toContain('greet(who');
    const result = await runtime.runTool('rename', {
      path: 'src/greeter.ts',
      symbol: 'Greeter.greet',
      new_name: 'welcome',
    });
    expect(result.text).toMatch(/^Renamed greet → welcome: 4 edits in 3 files\./);
    expect(result.text).toMatch(/\ndiagnostics: clean$/);
    for (const file of ['app.ts', 'greeter.ts']) {
      expect(read(`src/${file}`)).toBe(readFileSync(join(GOLDEN, `ts-renamed-${file}.txt`), 'utf8'));
    }
    expect(read('src/util.ts')).toBe(
      readFileSync(join(GOLDEN, 'ts-renamed-util.ts.txt'), 'utf8').replace(/\n/g, '\r\n'),
    );
  }, 60_000);
});
