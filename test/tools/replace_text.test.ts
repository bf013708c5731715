import { closeSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SettingsLayer } from '../../src/config/types.js';
import { createRuntime } from '../../src/runtime/create_runtime.js';
import { git } from '../support/git_trees.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

function workspace(
  files: Record<string, string | Buffer>,
  options: { yolo?: boolean; settings?: SettingsLayer } = {},
) {
  const dir = writeTree(files);
  const runtime = createRuntime({
    cwd: dir,
    documentsRoot: tempDir('lathe-home-'),
    approve: options.yolo ? undefined : ['edit'],
    yolo: options.yolo,
    settings: options.settings,
    env: {},
  });
  return { dir, runtime, read: (name: string) => readFileSync(join(dir, name), 'utf8') };
}

/** A text file of `lines` numbered lines ("line 1 of many\n" …): over 8 MB, so it is streamed. */
function bigText(lines: number): string {
  let text = '';
  for (let i = 1; i <= lines; i++) text += `line ${i} of many\n`;
  return text;
}
const BIG_LINES = 600_000;

describe('replace_text checks every file its glob matches', () => {
  it('a glob naming .agents/settings.json still asks under --yolo (protected), so headless refuses', async () => {
    const { runtime, read } = workspace({ '.agents/settings.json': '{"mode":"act"}\n' }, { yolo: true });
    const r = await runtime.runTool('replace_text', { glob: '.agents/*.json', find: 'act', replace: 'plan' });
    expect(r).toMatchObject({
      isError: true,
      text: expect.stringMatching(/\.agents\/ settings \(protected/),
    });
    expect(read('.agents/settings.json')).toBe('{"mode":"act"}\n');
  });

  it('a deny rule on a path holds when a broad glob matches it', async () => {
    const { runtime, read } = workspace(
      { 'secrets/key.txt': 'token\n', 'notes.txt': 'token\n' },
      { yolo: true, settings: { permissions: { deny: ['replace_text(secrets/**)'] } } },
    );
    const r = await runtime.runTool('replace_text', { glob: '**/*.txt', find: 'token', replace: 'gone' });
    expect(r).toMatchObject({
      isError: true,
      text: expect.stringMatching(/denied by rule replace_text\(secrets/),
    });
    expect(read('secrets/key.txt')).toBe('token\n');
    expect(read('notes.txt')).toBe('token\n');
  });

  it('changes the files the user was asked about, not one that appeared while they answered', async () => {
    const dir = writeTree({ 'a.txt': 'x\n' });
    const asked: string[] = [];
    const runtime = createRuntime({
      cwd: dir,
      documentsRoot: tempDir('lathe-home-'),
      env: {},
      askUser: async (request) => {
        asked.push(request.reason);
        writeFileSync(join(dir, 'b.txt'), 'x\n');
        return { approved: true };
      },
    });
    const r = await runtime.runTool('replace_text', { glob: '*.txt', find: 'x', replace: 'y' });
    expect(r.isError).toBe(false);
    expect(asked).toHaveLength(1);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('y\n');
    expect(readFileSync(join(dir, 'b.txt'), 'utf8')).toBe('x\n');
  });

  it('files the rules allow are changed as before', async () => {
    const { runtime, read } = workspace({ 'a.txt': 'x\n' }, { yolo: true });
    const r = await runtime.runTool('replace_text', { glob: '*.txt', find: 'x', replace: 'y' });
    expect(r.isError).toBe(false);
    expect(read('a.txt')).toBe('y\n');
  });
  it('a glob over everything leaves .git and what git ignores alone', async () => {
    const { dir, runtime, read } = workspace(
      { '.gitignore': 'node_modules/\n', 'node_modules/x/a.txt': 'x\n', 'a.txt': 'x\n' },
      { yolo: true },
    );
    git(dir, ['init', '-q']);
    writeFileSync(join(dir, '.git', 'x.txt'), 'x\n');
    const r = await runtime.runTool('replace_text', { glob: '**/*.txt', find: 'x', replace: 'y' });
    expect(r.isError).toBe(false);
    expect(read('a.txt')).toBe('y\n');
    expect(read('node_modules/x/a.txt')).toBe('x\n');
    expect(read('.git/x.txt')).toBe('x\n');
  });
});

describe('replace_text on files over 8 MB (streamed)', () => {
  it('replaces a literal everywhere, also across read chunks and lines, byte for byte elsewhere', async () => {
    const text = bigText(BIG_LINES);
    const { runtime, read } = workspace({ 'big.txt': text });
    const r = await runtime.runTool('replace_text', {
      glob: 'big.txt',
      find: 'many\nline 5',
      replace: 'MANY+5',
    });
    // Line 5, 50-59, 500-599 … 500000-599999 follow a "many" line.
    expect(r).toMatchObject({ isError: false, data: { total: 111_111 } });
    expect(read('big.txt')).toBe(text.split('many\nline 5').join('MANY+5'));
  }, 60_000);

  it.each([
    ['CRLF endings', '\r\n'],
    ['a CR file, whose lines end at each CR', '\r'],
  ])(
    'runs a regex line by line, keeping %s',
    async (_, eol) => {
      const text = bigText(BIG_LINES).replaceAll('\n', eol);
      const { runtime, dir } = workspace({ 'big.txt': text });
      const r = await runtime.runTool('replace_text', {
        glob: 'big.txt',
        find: '^line (\\d+)5 of',
        replace: '#$1',
        regex: true,
      });
      // Lines 15, 25 … 599995: every tenth line but line 5.
      expect(r).toMatchObject({ isError: false, data: { total: BIG_LINES / 10 - 1 } });
      expect(readFileSync(join(dir, 'big.txt'), 'utf8')).toBe(text.replace(/^line (\d+)5 of/gm, '#$1'));
    },
    60_000,
  );

  it('refuses a regex over a line longer than 4 MB, changing nothing', async () => {
    const huge = `${'y'.repeat(9 * 1024 * 1024)}\n`;
    const { runtime, read } = workspace({ 'one-line.txt': huge });
    const r = await runtime.runTool('replace_text', { glob: '*.txt', find: 'y+', replace: 'z', regex: true });
    expect(r).toMatchObject({ isError: true, text: expect.stringMatching(/line 1 is longer than 4 MB/) });
    expect(read('one-line.txt')).toBe(huge);
  }, 60_000);

  it('passes over a 1 GB sparse file (binary) without reading it all', async () => {
    const { runtime, dir } = workspace({ 'a.txt': 'x\n' });
    const fd = openSync(join(dir, 'sparse.txt'), 'w');
    writeSync(fd, Buffer.from('x'), 0, 1, 1024 * 1024 * 1024 - 1);
    closeSync(fd);
    const r = await runtime.runTool('replace_text', { glob: '*.txt', find: 'x', replace: 'y' });
    expect(r).toMatchObject({ isError: false, data: { total: 1, files: 1 } });
  }, 60_000);
});

describe('replace_text regex time limit', () => {
  it('stops a catastrophic regex and says so, changing nothing', async () => {
    const line = `${'a'.repeat(40)}!\n`;
    const { runtime, read } = workspace({ 'a.txt': line, 'b.txt': 'aaa\n' });
    const r = await runtime.runTool('replace_text', {
      glob: '*.txt',
      find: '^(a+)+$',
      replace: 'x',
      regex: true,
    });
    expect(r).toMatchObject({
      isError: true,
      text: expect.stringMatching(/the regex took too long .*catastrophic backtracking\?\) — simplify it/),
    });
    expect(read('a.txt')).toBe(line);
    expect(read('b.txt')).toBe('aaa\n');
  }, 60_000);
});
