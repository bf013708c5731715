import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePatch } from '../../src/edit/apply_patch/parse.js';
import { updateFileContent } from '../../src/edit/apply_patch/update_file.js';
import { exactReplace } from '../../src/edit/exact_replace.js';
import { detectEol } from '../../src/edit/line_endings.js';
import { replaceInFile } from '../../src/edit/search_replace/index.js';
import { createRuntime } from '../../src/runtime/create_runtime.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';
import { searchReplaceBlock } from '../support/search_replace_diffs.js';

const block = searchReplaceBlock;

function replaced(file: string, search: string[], replace: string[]): string {
  const r = replaceInFile(file, block(search, replace));
  if (!r.ok) throw new Error(r.error);
  return r.content;
}

function patched(file: string, ...body: string[]): string {
  const parsed = parsePatch(['*** Begin Patch', '*** Update File: f', ...body, '*** End Patch'].join('\n'));
  if (!parsed.ok || parsed.ops[0].kind !== 'update') throw new Error('not an update');
  const r = updateFileContent('f', file, parsed.ops[0].chunks);
  if (!r.ok) throw new Error(r.error);
  return r.content;
}

function edited(file: string, oldString: string, newString: string): string {
  const r = exactReplace(file, oldString, newString, false);
  if (!r.ok) throw new Error(r.error);
  return r.content;
}

describe('a file ending is the one most of its line breaks use', () => {
  it.each([
    ['', '\n'],
    ['a\r\nb\n', '\n'],
    ['a\r\nb\r\nc\n', '\r\n'],
    ['\r\n', '\r\n'],
    ['a\rb\r', '\r'],
    ['a\rb', '\r'],
    ['a\rb\rc\nd', '\r'],
    // Ties go to LF, then CRLF: a lone CR then stays text.
    ['a\rb\nc', '\n'],
    ['a\rb\r\nc', '\r\n'],
  ])('%j → %j', (text, eol) => {
    expect(detectEol(text)).toBe(eol);
  });
});

describe('replace_in_file', () => {
  it('splits a CR file at its CRs and writes CR (a line is not its prefix)', () => {
    expect(replaced('alpha\rbeta\r', ['beta'], ['BETA'])).toBe('alpha\rBETA\r');
    expect(replaced('alpha\rbeta\r', ['alpha'], ['ALPHA'])).toBe('ALPHA\rbeta\r');
    expect(replaced('alpha\rbeta\r', ['alpha', 'beta'], ['alpha', 'BETA', 'gamma'])).toBe(
      'alpha\rBETA\rgamma\r',
    );
  });

  it('keeps a CR file without a final newline so, when its last line is replaced or deleted', () => {
    expect(replaced('a\rb', ['b'], ['B', 'C'])).toBe('a\rB\rC');
    expect(replaced('a\rb\rc', ['c'], [])).toBe('a\rb');
  });

  it('in a mostly-CR file, every break ends a line and new lines get CR', () => {
    expect(replaced('a\rb\nc\rd\r', ['c'], ['C', 'C2'])).toBe('a\rb\nC\rC2\rd\r');
  });

  it('in an LF file, a lone CR is part of its line', () => {
    expect(replaced('progress 10%\rprogress 20%\ndone\n', ['done'], ['DONE'])).toBe(
      'progress 10%\rprogress 20%\nDONE\n',
    );
    expect(replaceInFile('a\rb\nc\n', block(['b'], ['B']))).toMatchObject({ ok: false });
  });

  it('writes new lines with the ending most lines use, not the first one', () => {
    expect(replaced('a\nb\r\nc\r\nd\r\n', ['c'], ['C1', 'C2'])).toBe('a\nb\r\nC1\r\nC2\r\nd\r\n');
  });

  it('keeps a CRLF file CRLF, also on written lines', () => {
    expect(replaced('a\r\nb\r\nc\r\n', ['b'], ['B1', 'B2'])).toBe('a\r\nB1\r\nB2\r\nc\r\n');
  });

  it('keeps a BOM, which is no part of the first line when matching', () => {
    expect(replaced('\uFEFFa\nb\n', ['a'], ['A'])).toBe('\uFEFFA\nb\n');
    expect(replaced('\uFEFFimport x;\nb\n', ['import x;'], ['import y;'])).toBe('\uFEFFimport y;\nb\n');
  });
});

describe('edit_file', () => {
  it('matches LF in old_string against a CR file and writes CR', () => {
    expect(edited('alpha\rbeta\r', 'alpha\n', 'A\n')).toBe('A\rbeta\r');
    expect(edited('alpha\rbeta\rgamma\r', 'beta\ngamma', 'BETA\nGAMMA\nDELTA')).toBe(
      'alpha\rBETA\rGAMMA\rDELTA\r',
    );
  });

  it('in a mostly-CR file, writes the break the replaced text had', () => {
    expect(edited('a\rb\rc\nd\r', 'c\nd', 'C\nD')).toBe('a\rb\rC\nD\r');
  });

  it('in an LF file, matches a lone CR only as a CR', () => {
    expect(edited('x\ra\nb\n', 'x\ra', 'y')).toBe('y\nb\n');
    expect(exactReplace('x\ra\nb\n', 'x\na', 'y', false)).toMatchObject({ ok: false });
  });
});

describe('apply_patch', () => {
  it('in a mostly-CR file, splits at every break and keeps each', () => {
    expect(patched('one\rtwo\nthree\rfour\r', '@@', ' two', '-three', '+THREE', '+3b')).toBe(
      'one\rtwo\nTHREE\r3b\rfour\r',
    );
  });

  it('in an LF file, keeps a lone CR inside its line', () => {
    expect(patched('a\rb\nc\n', '@@', '-a\rb', '+ab')).toBe('ab\nc\n');
  });
});

describe('the tools, on a CR file', () => {
  const workspace = (files: Record<string, string>) => {
    const dir = writeTree(files);
    const runtime = createRuntime({
      cwd: dir,
      documentsRoot: tempDir('lathe-home-'),
      approve: ['edit'],
      env: {},
    });
    return { runtime, read: (name: string) => readFileSync(join(dir, name), 'utf8') };
  };

  it('replace_in_file, edit_file and write_to_file keep CR', async () => {
    const { runtime, read } = workspace({ 'mac.txt': 'alpha\rbeta\r' });
    const edit = await runtime.runTool('replace_in_file', {
      path: 'mac.txt',
      diff: block(['beta'], ['BETA']),
    });
    expect(edit.isError, edit.text).toBe(false);
    expect(read('mac.txt')).toBe('alpha\rBETA\r');
    await runtime.runTool('read_file', { path: 'mac.txt' });
    const exact = await runtime.runTool('edit_file', {
      path: 'mac.txt',
      old_string: 'alpha\n',
      new_string: 'ALPHA\n',
    });
    expect(exact.isError, exact.text).toBe(false);
    expect(read('mac.txt')).toBe('ALPHA\rBETA\r');
    const write = await runtime.runTool('write_to_file', { path: 'mac.txt', content: 'one\ntwo\nthree\n' });
    expect(write.text).toMatch(/^Overwrote mac\.txt \(3 lines\)\./);
    expect(read('mac.txt')).toBe('one\rtwo\rthree\r');
    await runtime.dispose();
  });

  it('replace_text: a regex sees the lines of CR and CRLF files, and never splits a CRLF', async () => {
    const { runtime, read } = workspace({
      'mac.txt': 'a  \rb\r',
      'dos.txt': 'a  \r\nb\r\n',
      'unix.txt': 'a  \nb\n',
    });
    const regex = (glob: string, find: string, replace: string) =>
      runtime.runTool('replace_text', { glob, find, replace, regex: true });
    const strip = await regex('*.txt', '[ \\t]+$', '');
    expect(strip.isError, strip.text).toBe(false);
    expect([read('mac.txt'), read('dos.txt'), read('unix.txt')]).toEqual(['a\rb\r', 'a\r\nb\r\n', 'a\nb\n']);
    const mark = await regex('*.txt', '^', '> ');
    expect(mark.isError, mark.text).toBe(false);
    // Each file as its LF twin would be (JavaScript's `^` also matches after the final break).
    const unix = read('unix.txt');
    expect(unix).toBe('> a\n> b\n> ');
    expect([read('mac.txt'), read('dos.txt')]).toEqual([
      unix.replaceAll('\n', '\r'),
      unix.replaceAll('\n', '\r\n'),
    ]);
    // A match that spans lines writes its line breaks as the text it replaced had them.
    const join = await regex('dos.txt', 'a\\n> b', 'a\nB');
    expect(join.isError, join.text).toBe(false);
    expect(read('dos.txt')).toBe('> a\r\nB\r\n> ');
    await runtime.dispose();
  });
});
