import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/runtime/create_runtime.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

function workspace(files: Record<string, string>) {
  const dir = writeTree(files);
  return { dir, runtime: createRuntime({ cwd: dir, documentsRoot: tempDir('lathe-home-') }) };
}

describe('list_files', () => {
  it('lists the top level, folders with a slash, sorted', async () => {
    const { runtime } = workspace({ 'b.txt': '', 'a/x.txt': '', '.hidden': '' });
    expect((await runtime.runTool('list_files', {})).text).toBe('.hidden\na/\nb.txt');
  });
  it('honours .gitignore and never shows .git', async () => {
    const { runtime } = workspace({
      '.gitignore': 'dist/\n*.log\n',
      'dist/out.js': '',
      'x.log': '',
      'src/a.ts': '',
      '.git/HEAD': '',
    });
    expect((await runtime.runTool('list_files', {})).text).toBe('.gitignore\nsrc/');
  });
  it('lists recursively with folders before their files', async () => {
    const { runtime } = workspace({ 'src/a.ts': '', 'src/lib/b.ts': '', 'top.md': '' });
    expect((await runtime.runTool('list_files', { recursive: true })).text).toBe(
      'src/\nsrc/a.ts\nsrc/lib/\nsrc/lib/b.ts\ntop.md',
    );
  });
  it('honours nested .gitignore files when recursive', async () => {
    const { runtime } = workspace({ 'pkg/.gitignore': 'gen/\n', 'pkg/gen/x.ts': '', 'pkg/y.ts': '' });
    const text = (await runtime.runTool('list_files', { recursive: true })).text;
    expect(text).toContain('pkg/y.ts');
    expect(text).not.toContain('gen/x.ts');
  });
  it('caps a huge listing with a note', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 1_100; i++) files[`f/${String(i).padStart(4, '0')}.txt`] = '';
    const { runtime } = workspace(files);
    const r = await runtime.runTool('list_files', { recursive: true });
    expect(r.text).toMatch(/Capped at 1,000 entries/);
  });
  it('lists a subfolder with its path', async () => {
    const { runtime } = workspace({ 'src/a.ts': '' });
    expect((await runtime.runTool('list_files', { path: 'src' })).text).toBe('src/a.ts');
  });
  it('says a missing folder does not exist', async () => {
    const { runtime } = workspace({});
    expect((await runtime.runTool('list_files', { path: 'nope' })).text).toMatch(/does not exist/);
  });
});

describe('glob', () => {
  it('matches a pattern, newest first', async () => {
    const { dir, runtime } = workspace({ 'src/old.ts': '', 'src/new.ts': '', 'src/skip.js': '' });
    utimesSync(join(dir, 'src/old.ts'), 1_000, 1_000);
    utimesSync(join(dir, 'src/new.ts'), 2_000_000_000, 2_000_000_000);
    expect((await runtime.runTool('glob', { pattern: '**/*.ts' })).text).toBe('src/new.ts\nsrc/old.ts');
  });
  it('searches below a path and shows workspace-relative paths', async () => {
    const { runtime } = workspace({ 'a/x.py': '', 'b/y.py': '' });
    expect((await runtime.runTool('glob', { pattern: '*.py', path: 'b' })).text).toBe('b/y.py');
  });
  it('says when nothing matches', async () => {
    const { runtime } = workspace({ 'a.txt': '' });
    expect((await runtime.runTool('glob', { pattern: '**/*.rs' })).text).toMatch(/No files match/);
  });
  it('caps at 100 with a note', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 150; i++) files[`m/${i}.md`] = '';
    const { runtime } = workspace(files);
    const r = await runtime.runTool('glob', { pattern: '**/*.md' });
    expect(r.text.split('\n').filter((l) => l.endsWith('.md'))).toHaveLength(100);
    expect(r.text).toMatch(/150 files match; showing the 100 newest/);
  });
  it('skips ignored files', async () => {
    const { runtime } = workspace({ '.gitignore': 'build/\n', 'build/a.ts': '', 'a.ts': '' });
    expect((await runtime.runTool('glob', { pattern: '**/*.ts' })).text).toBe('a.ts');
  });
});

describe('search_files', () => {
  const files = {
    'src/a.ts': 'export function alpha() {}\nconst x = 1;\nexport function beta() {}\n',
    'src/b.py': 'def alpha():\n    pass\n',
    'README.md': 'Alpha release\n',
  };
  it('shows matching lines as path:line:text', async () => {
    const { runtime } = workspace(files);
    const r = await runtime.runTool('search_files', { regex: 'function beta', path: 'src' });
    expect(r.text).toBe('src/a.ts:3:export function beta() {}');
  });
  it('lists files with matches', async () => {
    const { runtime } = workspace(files);
    const r = await runtime.runTool('search_files', { regex: 'alpha', output_mode: 'files_with_matches' });
    expect(r.text.split('\n').sort()).toEqual(['src/a.ts', 'src/b.py']);
  });
  it('counts matches per file', async () => {
    const { runtime } = workspace(files);
    const r = await runtime.runTool('search_files', { regex: 'function', output_mode: 'count' });
    expect(r.text).toBe('src/a.ts:2');
  });
  it('searches case-insensitively on request', async () => {
    const { runtime } = workspace(files);
    const r = await runtime.runTool('search_files', {
      regex: 'alpha',
      case_insensitive: true,
      output_mode: 'files_with_matches',
    });
    expect(r.text.split('\n')).toContain('README.md');
  });
  it('filters by glob and by type', async () => {
    const { runtime } = workspace(files);
    expect((await runtime.runTool('search_files', { regex: 'alpha', file_pattern: '*.py' })).text).toBe(
      'src/b.py:1:def alpha():',
    );
    expect((await runtime.runTool('search_files', { regex: 'alpha', type: 'py' })).text).toBe(
      'src/b.py:1:def alpha():',
    );
  });
  it('adds context lines', async () => {
    const { runtime } = workspace(files);
    const r = await runtime.runTool('search_files', { regex: 'const x', context: 1 });
    expect(r.text).toBe(
      'src/a.ts-1-export function alpha() {}\nsrc/a.ts:2:const x = 1;\nsrc/a.ts-3-export function beta() {}',
    );
  });
  it('matches across lines in multiline mode', async () => {
    const { runtime } = workspace(files);
    const r = await runtime.runTool('search_files', {
      regex: 'alpha\\(\\) \\{\\}\\nconst',
      multiline: true,
      output_mode: 'files_with_matches',
    });
    expect(r.text).toBe('src/a.ts');
  });
  it('pages with head_limit and offset', async () => {
    const lines = Array.from({ length: 20 }, (_, i) => `hit ${i}`).join('\n');
    const { runtime } = workspace({ 'h.txt': lines });
    const first = await runtime.runTool('search_files', { regex: 'hit', head_limit: 5 });
    expect(first.text).toMatch(/^h.txt:1:hit 0[\s\S]*h.txt:5:hit 4\n\n\[Showing 5 lines.*offset=5/);
    const next = await runtime.runTool('search_files', { regex: 'hit', head_limit: 5, offset: 5 });
    expect(next.text).toMatch(/^h.txt:6:hit 5/);
  });
  it('says when nothing matches', async () => {
    const { runtime } = workspace(files);
    expect((await runtime.runTool('search_files', { regex: 'zzz' })).text).toMatch(/No matches/);
  });
  it('answers a broken regex with ripgrep’s error', async () => {
    const { runtime } = workspace(files);
    const r = await runtime.runTool('search_files', { regex: 'foo(' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/regex parse error|unclosed group/i);
  });
  it('honours .gitignore', async () => {
    const { runtime } = workspace({ '.gitignore': 'gen/\n', 'gen/x.ts': 'needle', 'y.ts': 'needle' });
    expect((await runtime.runTool('search_files', { regex: 'needle' })).text).toBe('y.ts:1:needle');
  });
});

describe('list_code_definition_names', () => {
  it('outlines the source files of a folder', async () => {
    const { runtime } = workspace({
      'src/shapes.ts':
        'export class Circle {\n  area(): number { return 1; }\n}\n\nexport function makeCircle() {}\n',
      'src/util.py': 'def helper():\n    pass\n',
      'src/notes.txt': 'not code',
    });
    const r = await runtime.runTool('list_code_definition_names', { path: 'src' });
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(/src\/shapes.ts/);
    expect(r.text).toMatch(/Circle/);
    expect(r.text).toMatch(/area/);
    expect(r.text).toMatch(/makeCircle/);
    expect(r.text).toMatch(/helper/);
    expect(r.text).not.toMatch(/notes/);
  });
  it('outlines one file', async () => {
    const { runtime } = workspace({ 'main.go': 'package main\n\nfunc main() {}\n\ntype Server struct{}\n' });
    const r = await runtime.runTool('list_code_definition_names', { path: 'main.go' });
    expect(r.text).toMatch(/main/);
    expect(r.text).toMatch(/Server/);
  });
  it('says when a file has nothing to outline', async () => {
    const { runtime } = workspace({ 'a.txt': 'hello' });
    expect((await runtime.runTool('list_code_definition_names', { path: 'a.txt' })).text).toMatch(
      /No definitions/,
    );
  });
});
