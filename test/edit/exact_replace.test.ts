import { describe, expect, it } from 'vitest';
import { exactReplace } from '../../src/edit/exact_replace.js';

function replaced(content: string, oldString: string, newString: string, replaceAll = false) {
  const result = exactReplace(content, oldString, newString, replaceAll);
  if (!result.ok) throw new Error(result.error);
  return result;
}

function refused(content: string, oldString: string, newString: string, replaceAll = false): string {
  const result = exactReplace(content, oldString, newString, replaceAll);
  if (result.ok) throw new Error('expected a refusal');
  return result.error;
}

describe('exactReplace', () => {
  it('replaces a unique occurrence', () => {
    expect(replaced('a\nb\nc\n', 'b', 'B')).toEqual({ ok: true, content: 'a\nB\nc\n', count: 1 });
  });

  it('refuses several occurrences with the count and their 1-based lines', () => {
    const error = refused('x = 1\ny = 2\nx = 1\n\nx = 1\n', 'x = 1', 'x = 3');
    expect(error).toBe(
      'old_string occurs 3 times (at lines 1, 3, 5). Include more surrounding lines so that it occurs once, ' +
        'or set replace_all to change every occurrence.',
    );
  });

  it('counts overlapping occurrences as ambiguous', () => {
    expect(refused('aaa', 'aa', 'b')).toMatch(/^old_string occurs 2 times \(at lines 1, 1\)/);
  });

  it('replaces every occurrence with replace_all and reports the count', () => {
    expect(replaced('x.x.x', 'x', 'yy', true)).toEqual({ ok: true, content: 'yy.yy.yy', count: 3 });
    expect(replaced('aaaa', 'aa', 'b', true)).toEqual({ ok: true, content: 'bb', count: 2 });
  });

  it('matches LF strings in a CRLF file and writes CRLF', () => {
    const result = replaced('one\r\ntwo\r\nthree\r\n', 'one\ntwo\n', 'uno\ndos\n');
    expect(result.content).toBe('uno\r\ndos\r\nthree\r\n');
    expect(replaced('one\r\ntwo\r\n', 'two', 'a\nb').content).toBe('one\r\na\r\nb\r\n');
  });

  it('keeps a mixed file as it was around the edit', () => {
    expect(replaced('a\r\nb\nc\nd\r\n', 'b\nc', 'B\nC').content).toBe('a\r\nB\nC\nd\r\n');
  });

  it('accepts CRLF in the strings for an LF file', () => {
    expect(replaced('a\nb\n', 'a\r\nb', 'x\r\ny').content).toBe('x\ny\n');
  });

  it('writes new_string literally, with no replacement patterns', () => {
    expect(replaced('price', 'price', "$& $1 $$ $'").content).toBe("$& $1 $$ $'");
  });

  it('refuses an empty old_string and an edit that changes nothing', () => {
    expect(refused('a', '', 'b')).toMatch(/^old_string is empty/);
    expect(refused('a\nb', 'a', 'a')).toMatch(/identical/);
    expect(refused('a\r\nb', 'a\nb', 'a\r\nb')).toMatch(/identical/);
  });

  it('shows the closest region with line numbers when nothing matches', () => {
    const file = 'import os\n\ndef run():\n    x = 1\n    return x\n';
    const error = refused(file, 'def run():\n    y = 1\n    return x', 'z');
    expect(error).toBe(
      [
        'old_string was not found in the file (it must match exactly, including whitespace).',
        'Expected (3 lines):',
        '  |def run():',
        '  |    y = 1',
        '  |    return x',
        'Closest region of the file (lines 3-5, 2 of 3 non-blank lines in common):',
        '  3|def run():',
        '  4|    x = 1',
        '  5|    return x',
      ].join('\n'),
    );
  });

  it('makes tabs and spaces visible when whitespace is the difference', () => {
    const error = refused('def run():\n\treturn 1\n', 'def run():\n    return 1', 'z');
    expect(error).toContain('  |····return 1');
    expect(error).toContain('  2|→return 1');
    expect(error).toContain('Whitespace differs: → marks a tab and · a space.');
  });

  it('says so when no line of old_string is in the file', () => {
    expect(refused('', 'missing', 'x')).toContain('No line of it appears in the file.');
  });
});
