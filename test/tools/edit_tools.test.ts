import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/runtime/create_runtime.js';
import { NO_FACTS } from '../../src/tool/facts.js';
import { tempDir } from '../support/runtime_fixtures.js';

function workspace(
  files: Record<string, string | Buffer> = {},
  options: { mode?: 'plan' | 'act'; strict?: boolean } = {},
) {
  const dir = tempDir();
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  const runtime = createRuntime({
    cwd: dir,
    documentsRoot: tempDir('lathe-home-'),
    approve: ['edit'],
    mode: options.mode,
    strictPlanMode: options.strict,
    env: {},
  });
  const read = (name: string) => readFileSync(join(dir, name), 'utf8');
  return { dir, runtime, read };
}

describe('write_to_file', () => {
  it('creates a file and its missing folders', async () => {
    const { runtime, read } = workspace();
    const r = await runtime.runTool('write_to_file', { path: 'a/b/c.txt', content: 'hello\n' });
    expect(r).toMatchObject({ isError: false, text: 'Created a/b/c.txt (1 lines).' });
    expect(read('a/b/c.txt')).toBe('hello\n');
  });
  it('overwrites and returns a diff', async () => {
    const { runtime, read } = workspace({ 'x.txt': 'one\ntwo\n' });
    const r = await runtime.runTool('write_to_file', { path: 'x.txt', content: 'one\nthree\n' });
    expect(r.text).toMatch(/-two\n\+three/);
    expect(read('x.txt')).toBe('one\nthree\n');
  });
  it('keeps a CRLF file CRLF and a BOM', async () => {
    const { runtime, dir } = workspace({ 'w.txt': Buffer.from('\ufeffa\r\nb\r\n') });
    await runtime.runTool('write_to_file', { path: 'w.txt', content: 'c\nd\n' });
    expect(readFileSync(join(dir, 'w.txt'))).toEqual(Buffer.from('\ufeffc\r\nd\r\n'));
  });
  it('keeps the mode bits of the file it replaces', async () => {
    const { runtime, dir } = workspace({ 'run.sh': '#!/bin/sh\n' });
    chmodSync(join(dir, 'run.sh'), 0o755);
    await runtime.runTool('write_to_file', { path: 'run.sh', content: '#!/bin/sh\necho hi\n' });
    expect(statSync(join(dir, 'run.sh')).mode & 0o777).toBe(0o755);
  });
  it('refuses to overwrite a binary file', async () => {
    const { runtime, dir } = workspace({ 'b.bin': Buffer.from([0, 1, 2]) });
    const r = await runtime.runTool('write_to_file', { path: 'b.bin', content: 'x' });
    expect(r.isError).toBe(true);
    expect(readFileSync(join(dir, 'b.bin'))).toEqual(Buffer.from([0, 1, 2]));
  });
  it('is refused in Plan mode under Strict Plan Mode', async () => {
    const { runtime, dir } = workspace({}, { mode: 'plan', strict: true });
    const r = await runtime.runTool('write_to_file', { path: 'p.txt', content: 'x' });
    expect(r.text).toMatch(/Strict Plan Mode/);
    expect(existsSync(join(dir, 'p.txt'))).toBe(false);
  });
  it('asks (so headless: refuses) in Plan mode', async () => {
    const { runtime } = workspace({}, { mode: 'plan' });
    expect((await runtime.runTool('write_to_file', { path: 'p.txt', content: 'x' })).text).toMatch(
      /Plan mode/,
    );
  });
  it('needs approval outside the workspace (editOutside)', async () => {
    const { runtime } = workspace();
    const outside = tempDir();
    const r = await runtime.runTool('write_to_file', { path: join(outside, 'o.txt'), content: 'x' });
    expect(r.text).toMatch(/editOutside/);
    expect(existsSync(join(outside, 'o.txt'))).toBe(false);
  });
});

describe('replace_in_file', () => {
  const source = 'function a() {\n  return 1;\n}\n\nfunction b() {\n  return 2;\n}\n';
  it('replaces one block and reports the ranges', async () => {
    const { runtime, read } = workspace({ 'f.js': source });
    const diff =
      '------- SEARCH\nfunction b() {\nreturn 2;\n=======\nfunction b() {\n  return 3;\n+++++++ REPLACE';
    const r = await runtime.runTool('replace_in_file', { path: 'f.js', diff });
    expect(r.isError).toBe(false);
    expect(read('f.js')).toBe(source.replace('return 2', 'return 3'));
    expect(r.text).toMatch(/block 1: lines 5-6/);
    expect(r.text).toMatch(/- {2}return 2;\n\+ {2}return 3;/);
  });
  it('refuses an ambiguous block with every candidate line, file untouched', async () => {
    const { runtime, read } = workspace({ 'f.js': source });
    const r = await runtime.runTool('replace_in_file', {
      path: 'f.js',
      diff: '------- SEARCH\n}\n=======\n};\n+++++++ REPLACE',
    });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/3\b.*7\b/);
    expect(read('f.js')).toBe(source);
  });
  it('keeps CRLF line endings', async () => {
    const { runtime, dir } = workspace({ 'c.txt': 'a\r\nb\r\nc\r\n' });
    await runtime.runTool('replace_in_file', {
      path: 'c.txt',
      diff: '------- SEARCH\nb\n=======\nB\nB2\n+++++++ REPLACE',
    });
    expect(readFileSync(join(dir, 'c.txt'), 'latin1')).toBe('a\r\nB\r\nB2\r\nc\r\n');
  });
  it('says how to create a missing file', async () => {
    const { runtime } = workspace();
    const r = await runtime.runTool('replace_in_file', {
      path: 'no.txt',
      diff: '------- SEARCH\na\n=======\nb\n+++++++ REPLACE',
    });
    expect(r.text).toMatch(/write_to_file/);
  });
});

describe('edit_file', () => {
  it('refuses a file that was not read first', async () => {
    const { runtime } = workspace({ 'e.txt': 'alpha\n' });
    const r = await runtime.runTool('edit_file', { path: 'e.txt', old_string: 'alpha', new_string: 'beta' });
    expect(r.text).toMatch(/has not been read/);
  });
  it('edits after a read and returns a diff', async () => {
    const { runtime, read } = workspace({ 'e.txt': 'alpha\nbeta\n' });
    await runtime.runTool('read_file', { path: 'e.txt' });
    const r = await runtime.runTool('edit_file', { path: 'e.txt', old_string: 'beta', new_string: 'gamma' });
    expect(r.isError).toBe(false);
    expect(read('e.txt')).toBe('alpha\ngamma\n');
    expect(r.text).toMatch(/-beta\n\+gamma/);
  });
  it('refuses a file changed on disk since it was read', async () => {
    const { runtime, dir } = workspace({ 'e.txt': 'alpha\n' });
    await runtime.runTool('read_file', { path: 'e.txt' });
    writeFileSync(join(dir, 'e.txt'), 'alpha changed\n');
    const r = await runtime.runTool('edit_file', { path: 'e.txt', old_string: 'alpha', new_string: 'x' });
    expect(r.text).toMatch(/changed on disk/);
  });
  it('does not refuse a file whose modification time changed but content did not', async () => {
    const { runtime, dir } = workspace({ 'e.txt': 'alpha\n' });
    await runtime.runTool('read_file', { path: 'e.txt' });
    writeFileSync(join(dir, 'e.txt'), 'alpha\n');
    const r = await runtime.runTool('edit_file', { path: 'e.txt', old_string: 'alpha', new_string: 'x' });
    expect(r.isError).toBe(false);
  });
  it('allows a second edit without a fresh read', async () => {
    const { runtime, read } = workspace({ 'e.txt': 'a b\n' });
    await runtime.runTool('read_file', { path: 'e.txt' });
    await runtime.runTool('edit_file', { path: 'e.txt', old_string: 'a', new_string: 'A' });
    const r = await runtime.runTool('edit_file', { path: 'e.txt', old_string: 'b', new_string: 'B' });
    expect(r.isError).toBe(false);
    expect(read('e.txt')).toBe('A B\n');
  });
  it('refuses two occurrences unless replace_all', async () => {
    const { runtime, read } = workspace({ 'e.txt': 'x\nx\n' });
    await runtime.runTool('read_file', { path: 'e.txt' });
    expect(
      (await runtime.runTool('edit_file', { path: 'e.txt', old_string: 'x', new_string: 'y' })).isError,
    ).toBe(true);
    const r = await runtime.runTool('edit_file', {
      path: 'e.txt',
      old_string: 'x',
      new_string: 'y',
      replace_all: true,
    });
    expect(r.text).toMatch(/2 replacements/);
    expect(read('e.txt')).toBe('y\ny\n');
  });
  it('matches LF in old_string against a CRLF file and writes CRLF', async () => {
    const { runtime, dir } = workspace({ 'c.txt': 'one\r\ntwo\r\n' });
    await runtime.runTool('read_file', { path: 'c.txt' });
    await runtime.runTool('edit_file', { path: 'c.txt', old_string: 'one\ntwo', new_string: 'uno\ndos' });
    expect(readFileSync(join(dir, 'c.txt'), 'latin1')).toBe('uno\r\ndos\r\n');
  });
  it('creates a new file with an empty old_string', async () => {
    const { runtime, read } = workspace();
    await runtime.runTool('edit_file', { path: 'new.txt', old_string: '', new_string: 'fresh\n' });
    expect(read('new.txt')).toBe('fresh\n');
  });
});

describe('apply_patch', () => {
  it('adds, updates and deletes files in one patch', async () => {
    const { runtime, dir, read } = workspace({ 'keep.txt': 'a\nb\nc\n', 'gone.txt': 'x\n' });
    const patch = [
      '*** Begin Patch',
      '*** Add File: new/n.txt',
      '+hello',
      '*** Update File: keep.txt',
      '@@',
      ' a',
      '-b',
      '+B',
      ' c',
      '*** Delete File: gone.txt',
      '*** End Patch',
    ].join('\n');
    const r = await runtime.runTool('apply_patch', { input: patch });
    expect(r.isError).toBe(false);
    expect(read('new/n.txt')).toBe('hello\n');
    expect(read('keep.txt')).toBe('a\nB\nc\n');
    expect(existsSync(join(dir, 'gone.txt'))).toBe(false);
  });
  it('changes nothing when one hunk fails', async () => {
    const { runtime, dir, read } = workspace({ 'one.txt': 'a\n', 'two.txt': 'b\n' });
    const patch = [
      '*** Begin Patch',
      '*** Update File: one.txt',
      '-a',
      '+A',
      '*** Add File: three.txt',
      '+3',
      '*** Update File: two.txt',
      '-not there',
      '+x',
      '*** End Patch',
    ].join('\n');
    const r = await runtime.runTool('apply_patch', { input: patch });
    expect(r.isError).toBe(true);
    expect(read('one.txt')).toBe('a\n');
    expect(existsSync(join(dir, 'three.txt'))).toBe(false);
  });
  it('answers an unparsable patch with the reason', async () => {
    const { runtime } = workspace();
    const r = await runtime.runTool('apply_patch', {
      input: '*** Begin Patch\n*** Frobnicate File: x\n*** End Patch',
    });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/could not be parsed/);
  });
  it('asks for each file it touches outside the workspace', async () => {
    const { runtime } = workspace();
    const outside = tempDir();
    const r = await runtime.runTool('apply_patch', {
      input: `*** Begin Patch\n*** Add File: ${join(outside, 'x.txt')}\n+x\n*** End Patch`,
    });
    expect(r.text).toMatch(/editOutside/);
  });
});

describe('replace_text', () => {
  const files = {
    'src/a.ts': 'const oldName = 1;\noldName++;\n',
    'src/b.ts': 'oldName();\n',
    'docs/c.md': 'oldName\n',
  };
  it('previews without writing', async () => {
    const { runtime, read } = workspace(files);
    const r = await runtime.runTool('replace_text', {
      glob: 'src/**/*.ts',
      find: 'oldName',
      replace: 'newName',
      preview: true,
    });
    expect(r.text).toMatch(/Preview \(nothing written\): 3 replacements in 2 files/);
    expect(r.text).toMatch(/-oldName\(\);\n\+newName\(\);/);
    expect(read('src/b.ts')).toBe('oldName();\n');
  });
  it('replaces literally across the matching files only', async () => {
    const { runtime, read } = workspace(files);
    await runtime.runTool('replace_text', { glob: 'src/**/*.ts', find: 'oldName', replace: 'newName' });
    expect(read('src/a.ts')).toBe('const newName = 1;\nnewName++;\n');
    expect(read('docs/c.md')).toBe('oldName\n');
  });
  it('replaces with a regex and capture groups', async () => {
    const { runtime, read } = workspace({ 'v.txt': 'v1.2 v3.4\n' });
    await runtime.runTool('replace_text', {
      glob: '*.txt',
      find: 'v(\\d)\\.(\\d)',
      replace: '$2.$1',
      regex: true,
    });
    expect(read('v.txt')).toBe('2.1 4.3\n');
  });
  it('answers an invalid regex clearly', async () => {
    const { runtime } = workspace({ 'v.txt': 'x' });
    const r = await runtime.runTool('replace_text', { glob: '*.txt', find: '(', replace: '', regex: true });
    expect(r.text).toMatch(/not a valid regular expression/);
  });
  it('is never read-only by the contract; Plan mode allows only a preview', async () => {
    const { runtime } = workspace();
    const tool = runtime.pool.find((t) => t.name === 'replace_text')!;
    expect(tool.isReadOnly({ preview: true }, NO_FACTS)).toBe(false);
    expect(tool.planModeAllowed({ preview: true }, NO_FACTS)).toBe(true);
    expect(tool.planModeAllowed({ preview: false }, NO_FACTS)).toBe(false);
  });
});

describe('notebook_edit', () => {
  const notebook = JSON.stringify(
    {
      nbformat: 4,
      nbformat_minor: 5,
      metadata: {},
      cells: [
        { cell_type: 'markdown', id: 'm1', metadata: {}, source: ['# Title'] },
        {
          cell_type: 'code',
          id: 'c1',
          metadata: {},
          source: ['x = 1'],
          execution_count: 1,
          outputs: [{ output_type: 'stream', name: 'stdout', text: ['1'] }],
        },
      ],
    },
    null,
    1,
  );
  const cells = (read: (n: string) => string) => JSON.parse(read('n.ipynb')).cells;

  it('replaces a code cell, clearing its outputs', async () => {
    const { runtime, read } = workspace({ 'n.ipynb': notebook });
    await runtime.runTool('read_file', { path: 'n.ipynb' });
    const r = await runtime.runTool('notebook_edit', {
      path: 'n.ipynb',
      edit_mode: 'replace',
      cell_id: 'c1',
      new_source: 'x = 2\nprint(x)',
    });
    expect(r.isError).toBe(false);
    expect(cells(read)[1]).toMatchObject({
      source: ['x = 2\n', 'print(x)'],
      outputs: [],
      execution_count: null,
    });
  });
  it('inserts after a cell number, with a fresh id', async () => {
    const { runtime, read } = workspace({ 'n.ipynb': notebook });
    await runtime.runTool('read_file', { path: 'n.ipynb' });
    await runtime.runTool('notebook_edit', {
      path: 'n.ipynb',
      edit_mode: 'insert',
      cell_number: 1,
      new_source: 'Intro',
      cell_type: 'markdown',
    });
    const c = cells(read);
    expect(c.map((x: { cell_type: string }) => x.cell_type)).toEqual(['markdown', 'markdown', 'code']);
    expect(c[1].id).toMatch(/^[0-9a-f]{8}$/);
  });
  it('deletes a cell', async () => {
    const { runtime, read } = workspace({ 'n.ipynb': notebook });
    await runtime.runTool('read_file', { path: 'n.ipynb' });
    await runtime.runTool('notebook_edit', { path: 'n.ipynb', edit_mode: 'delete', cell_number: 1 });
    expect(cells(read).map((x: { id: string }) => x.id)).toEqual(['c1']);
  });
  it('refuses a cell number out of range', async () => {
    const { runtime } = workspace({ 'n.ipynb': notebook });
    await runtime.runTool('read_file', { path: 'n.ipynb' });
    const r = await runtime.runTool('notebook_edit', {
      path: 'n.ipynb',
      edit_mode: 'delete',
      cell_number: 9,
    });
    expect(r.text).toMatch(/out of range: the notebook has 2 cells/);
  });
  it('keeps the notebook valid JSON with the original indentation', async () => {
    const { runtime, read } = workspace({ 'n.ipynb': notebook });
    await runtime.runTool('read_file', { path: 'n.ipynb' });
    await runtime.runTool('notebook_edit', {
      path: 'n.ipynb',
      edit_mode: 'replace',
      cell_number: 1,
      new_source: '# New',
    });
    expect(read('n.ipynb').startsWith('{\n "cells"') || read('n.ipynb').startsWith('{\n "nbformat"')).toBe(
      true,
    );
    expect(() => JSON.parse(read('n.ipynb'))).not.toThrow();
  });
});
