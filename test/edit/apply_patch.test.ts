import { describe, expect, it } from 'vitest';
import { type FileState, parsePatch, patchPaths, planPatch } from '../../src/edit/apply_patch/index.js';

function patch(...body: string[]): string {
  return ['*** Begin Patch', ...body, '*** End Patch', ''].join('\n');
}

function parseError(text: string): string {
  const parsed = parsePatch(text);
  if (parsed.ok) throw new Error('expected a parse error');
  return parsed.error;
}

function plan(text: string, files: Record<string, FileState>) {
  const parsed = parsePatch(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return planPatch(parsed.ops, new Map(Object.entries(files)));
}

/** Plans and returns the new content of `path`, failing the test on a refusal. */
function updated(text: string, files: Record<string, FileState>, path: string): string | null {
  const result = plan(text, files);
  if (!result.ok) throw new Error(result.error);
  const change = result.changes.find((c) => c.path === path);
  if (change === undefined) throw new Error(`no change for ${path}`);
  return change.content;
}

function planError(text: string, files: Record<string, FileState>): string {
  const result = plan(text, files);
  if (result.ok) throw new Error('expected a refusal');
  expect(result).not.toHaveProperty('changes');
  return result.error;
}

describe('parsePatch', () => {
  it('parses add, delete and update with move, keeping patch line numbers', () => {
    const parsed = parsePatch(
      patch(
        '*** Add File: a.txt',
        '+one',
        '+two',
        '*** Delete File: b.txt',
        '*** Update File: c.txt',
        '*** Move to: d.txt',
        '@@ def f():',
        ' keep',
        '-old',
        '+new',
      ),
    );
    expect(parsed).toEqual({
      ok: true,
      ops: [
        { kind: 'add', path: 'a.txt', content: 'one\ntwo\n', line: 2 },
        { kind: 'delete', path: 'b.txt', line: 5 },
        {
          kind: 'update',
          path: 'c.txt',
          moveTo: 'd.txt',
          line: 6,
          chunks: [
            {
              contexts: ['def f():'],
              oldLines: ['keep', 'old'],
              newLines: ['keep', 'new'],
              keptFrom: [0, -1],
              endOfFile: false,
              line: 8,
            },
          ],
        },
      ],
    });
  });

  it('names the line and the valid headers for an unknown hunk header', () => {
    expect(parseError(patch('*** Frobnicate File: foo'))).toBe(
      "line 2: '*** Frobnicate File: foo' is not a valid hunk header; expected *** Add File:, *** Delete File: or *** Update File:",
    );
  });

  it('hints at the missing + when an added file has a bare line', () => {
    expect(parseError(patch('*** Add File: a.py', '+import os', 'print(1)'))).toMatch(
      /line 4: 'print\(1\)' is not a valid hunk header.*must start with '\+'/,
    );
  });

  it('refuses a patch without hunks, or without its markers', () => {
    expect(parseError(patch())).toMatch(/^line 2: the patch has no hunks/);
    expect(parseError('')).toMatch(/empty/);
    expect(parseError('*** Update File: a\n@@\n-x\n+y\n*** End Patch')).toMatch(
      /^line 1: expected '\*\*\* Begin Patch'/,
    );
    expect(parseError('*** Begin Patch\n*** Delete File: a\n')).toMatch(
      /^line 2: expected '\*\*\* End Patch'/,
    );
  });

  it('refuses an Update without changes and a change without lines', () => {
    expect(parseError(patch('*** Update File: foo.txt'))).toMatch(
      /^line 2: '\*\*\* Update File: foo.txt' has no changes/,
    );
    expect(parseError(patch('*** Update File: foo.txt', '@@'))).toMatch(
      /^line 3: the change to foo.txt .* has no lines/,
    );
  });

  it('requires @@ before every chunk but the first', () => {
    const parsed = parsePatch(patch('*** Update File: f', '-a', '+b'));
    expect(parsed.ok).toBe(true);
    expect(parseError(patch('*** Update File: f', '@@', '-a', '+b', '', 'x'))).toMatch(
      /^line 7: expected '@@' or '@@ <context line>' to start the next change of f, got 'x'/,
    );
  });

  it('refuses a bad first line inside a change and missing paths', () => {
    expect(parseError(patch('*** Update File: f', '@@', 'x'))).toMatch(
      /^line 4: unexpected line 'x' in a change to f/,
    );
    expect(parseError(patch('*** Add File:'))).toMatch(/^line 2: '\*\*\* Add File:' needs a file path/);
    expect(parseError(patch('*** Update File: f', '*** Move to:', '@@', '-a'))).toMatch(
      /^line 3: '\*\*\* Move to:' needs/,
    );
  });

  it('accepts CRLF patches, padded markers and a heredoc wrapper', () => {
    const crlf = patch('*** Update File: f', '@@', '-a', '+b').replace(/\n/g, '\r\n');
    const parsed = parsePatch(crlf);
    expect(parsed.ok && parsed.ops[0]).toMatchObject({
      kind: 'update',
      chunks: [{ oldLines: ['a'], newLines: ['b'] }],
    });
    expect(parsePatch(`  *** Begin Patch \n  *** Delete File: a  \n *** End Patch  `).ok).toBe(true);
    expect(parsePatch(`<<'EOF'\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF\n`).ok).toBe(true);
  });

  it('marks End of File chunks', () => {
    const parsed = parsePatch(patch('*** Update File: f', '@@', ' a', '+b', '*** End of File'));
    expect(parsed.ok && parsed.ops[0].kind === 'update' && parsed.ops[0].chunks[0].endOfFile).toBe(true);
    expect(parseError(patch('*** Update File: f', '@@', '*** End of File'))).toMatch(
      /closes a change that has no lines/,
    );
  });
});

describe('planPatch: locating changes', () => {
  it('refuses a change whose lines match in several places, listing 1-based lines', () => {
    const file = 'a\nx\nb\nx\nc\nx\n';
    const error = planError(patch('*** Update File: f', '@@', '-x', '+y'), { f: file });
    expect(error).toMatch(/^f: hunk 1 \(patch line 2\), change 1 of 1 \(patch line 3\) is ambiguous/);
    expect(error).toContain('match at lines 2, 4, 6');
    expect(error).toContain('No file was changed');
  });

  it('lets more context or an @@ line disambiguate', () => {
    const file = 'a\nx\nb\nx\nc\nx\n';
    expect(updated(patch('*** Update File: f', '@@', ' b', '-x', '+y'), { f: file }, 'f')).toBe(
      'a\nx\nb\ny\nc\nx\n',
    );
    expect(updated(patch('*** Update File: f', '@@ c', '-x', '+y'), { f: file }, 'f')).toBe(
      'a\nx\nb\nx\nc\ny\n',
    );
  });

  it('takes an @@ line as "the next match below it"; repeated @@ lines must agree', () => {
    const agreeing = 'class A\n  pass\nclass A\nhelper\nx\n';
    expect(updated(patch('*** Update File: f', '@@ class A', '-x', '+y'), { f: agreeing }, 'f')).toBe(
      'class A\n  pass\nclass A\nhelper\ny\n',
    );
    const disagreeing = 'def run():\n  x\ndef run():\n  x\n';
    const error = planError(patch('*** Update File: f', '@@ def run():', '-  x', '+  y'), { f: disagreeing });
    expect(error).toContain('match at lines 2, 4');
    expect(error).toContain("the '@@ def run():' line occurs at lines 1, 3");
  });

  it('checks ambiguity only below the previous change, like the reference search window', () => {
    const file = 'x\nmid\nx\nend\n';
    const text = patch('*** Update File: f', '@@', '-x', '+first', ' mid', '@@', '-x', '+second');
    // The second change alone matches lines 1 and 3, but only line 3 is below the first change.
    expect(updated(text, { f: file }, 'f')).toBe('first\nmid\nsecond\nend\n');
  });

  it('places a repeated change where the later changes pin it: one in-order placement applies', () => {
    const text = patch('*** Update File: f', '@@', '-x', '+y', '@@', '-A', '+A2');
    // "x" occurs at lines 1 and 3, but only line 1 leaves an "A" below it for the second change.
    expect(updated(text, { f: 'x\nA\nx\nB\n' }, 'f')).toBe('y\nA2\nx\nB\n');
  });

  it('refuses a repeated change when several in-order placements fit, naming that change', () => {
    const text = patch('*** Update File: f', '@@', '-x', '+y', '@@', '-A', '+A2');
    const error = planError(text, { f: 'x\nx\nA\n' });
    expect(error).toMatch(/change 1 of 2 \(patch line 3\) is ambiguous: its lines match at lines 1, 2/);
    const second = planError(text, { f: 'x\nA\nB\nA\n' });
    expect(second).toMatch(/change 2 of 2 \(patch line 6\) is ambiguous: its lines match at lines 2, 4/);
  });

  it('falls back to trailing-whitespace, trimmed and typographic matches, keeping context as the file has it', () => {
    expect(updated(patch('*** Update File: f', '@@', ' a', '-b', '+B'), { f: 'a  \nb\t\n' }, 'f')).toBe(
      'a  \nB\n',
    );
    expect(updated(patch('*** Update File: f', '@@', ' a', '-b', '+B'), { f: '    a\n    b\n' }, 'f')).toBe(
      '    a\nB\n',
    );
    expect(
      updated(
        patch('*** Update File: f', '@@', '-it - isn\'t "x"', '+ok'),
        { f: 'it \u2013 isn\u2019t \u201cx\u201d\n' },
        'f',
      ),
    ).toBe('ok\n');
  });

  it('prefers an exact match over looser ones without calling it ambiguous', () => {
    expect(updated(patch('*** Update File: f', '@@', '-x', '+y'), { f: '  x\nx\n' }, 'f')).toBe('  x\ny\n');
  });

  it('shows the expected lines and the closest region when a change does not apply', () => {
    const file = 'def f():\n\treturn 1\n\nother\n';
    const text = patch(
      '*** Update File: f.py',
      '@@',
      ' def f():',
      '-    return 1',
      ' x = 1',
      '+    return 3',
    );
    const error = planError(text, {
      'f.py': file,
    });
    expect(error).toMatch(/^f\.py: hunk 1 \(patch line 2\), change 1 of 1 \(patch line 3\) does not apply/);
    expect(error).toContain('Expected (3 lines):');
    expect(error).toContain('  |····return 1');
    expect(error).toContain('  |def f():');
    expect(error).toContain('Closest region of f.py (lines 1-3, 2 of 3 non-blank lines in common)');
    expect(error).toContain('  1|def f():');
    expect(error).toContain('  2|→return 1');
    expect(error).toContain('Whitespace differs');
  });

  it('reports a missing @@ line', () => {
    expect(planError(patch('*** Update File: f', '@@ nowhere', '-a', '+b'), { f: 'a\n' })).toContain(
      "the '@@ nowhere' line was not found",
    );
  });

  it('anchors End of File changes at the end and refuses overlap with an earlier change', () => {
    const text = patch('*** Update File: f', '@@', ' x', '-y', '+Y', '*** End of File');
    expect(updated(text, { f: 'x\ny\nx\ny\n' }, 'f')).toBe('x\ny\nx\nY\n');
    const overlapping = patch(
      '*** Update File: f',
      '@@',
      '-b',
      '+B',
      '@@',
      ' a',
      '-b',
      '+C',
      '*** End of File',
    );
    expect(planError(overlapping, { f: 'a\nb\n' })).toContain('at the end of the file');
  });

  it('appends pure additions at the end; a file without a final newline keeps none', () => {
    expect(updated(patch('*** Update File: f', '@@', '+c'), { f: 'a\nb' }, 'f')).toBe('a\nb\nc');
    expect(updated(patch('*** Update File: f', '@@', '+c'), { f: 'a\nb\n' }, 'f')).toBe('a\nb\nc\n');
    expect(updated(patch('*** Update File: f', '@@', '+c'), { f: '' }, 'f')).toBe('c\n');
  });

  it('retries without a trailing blank context line', () => {
    const text = patch('*** Update File: f', '@@', '-a', '+b', '', '*** Delete File: g');
    expect(updated(text, { f: 'a\nz\n', g: 'g\n' }, 'f')).toBe('b\nz\n');
  });
});

describe('planPatch: files', () => {
  it('is atomic across files: a later failure leaves no changes', () => {
    const result = plan(
      patch('*** Add File: new.txt', '+hello', '*** Update File: a.txt', '@@', '-nope', '+x'),
      {
        'new.txt': null,
        'a.txt': 'a\n',
      },
    );
    expect(result).toEqual({ ok: false, error: expect.stringContaining('a.txt: hunk 2 (patch line 4)') });
  });

  it('keeps CRLF: new lines use the file ending, untouched lines keep theirs', () => {
    const text = patch('*** Update File: f', '@@', ' a', '-b', '+B1', '+B2');
    expect(updated(text, { f: 'a\r\nb\r\nc\r\n' }, 'f')).toBe('a\r\nB1\r\nB2\r\nc\r\n');
    expect(updated(text, { f: 'a\r\nb\r\nc\nd\r\n' }, 'f')).toBe('a\r\nB1\r\nB2\r\nc\nd\r\n');
    expect(updated(patch('*** Update File: f', '@@', '+z'), { f: 'a\r\nb' }, 'f')).toBe('a\r\nb\r\nz');
  });

  it('keeps a missing final newline missing, whichever lines change', () => {
    const lastLine = patch('*** Update File: f', '@@', ' a', '-b', '+B');
    expect(updated(lastLine, { f: 'a\nb' }, 'f')).toBe('a\nB');
    expect(updated(lastLine, { f: 'a\r\nb' }, 'f')).toBe('a\r\nB');
    const grow = patch('*** Update File: f', '@@', ' a', '-b', '+B', '+C');
    expect(updated(grow, { f: 'a\nb' }, 'f')).toBe('a\nB\nC');
    expect(updated(patch('*** Update File: f', '@@', ' a', '-b'), { f: 'a\nb' }, 'f')).toBe('a');
  });

  it('keeps each line ending of a mixed file: a new line takes the ending of the line it replaces', () => {
    const text = patch('*** Update File: f', '@@', ' a', '-b', '+B', ' c');
    expect(updated(text, { f: 'a\r\nb\nc\r\n' }, 'f')).toBe('a\r\nB\nc\r\n');
    expect(updated(text, { f: 'a\nb\r\nc\n' }, 'f')).toBe('a\nB\r\nc\n');
  });

  it('matches and keeps a CR-only file', () => {
    const text = patch('*** Update File: f', '@@', ' a', '-b', '+B1', '+B2', ' c');
    expect(updated(text, { f: 'a\rb\rc\r' }, 'f')).toBe('a\rB1\rB2\rc\r');
    expect(updated(text, { f: 'a\rb\rc' }, 'f')).toBe('a\rB1\rB2\rc');
  });

  it('moves a file, overwriting an existing destination; writes come before deletions', () => {
    const result = plan(patch('*** Update File: old/a.txt', '*** Move to: new/a.txt', '@@', '-from', '+to'), {
      'old/a.txt': 'from\n',
      'new/a.txt': 'existing\n',
    });
    expect(result).toEqual({
      ok: true,
      changes: [
        { path: 'new/a.txt', content: 'to\n' },
        { path: 'old/a.txt', content: null },
      ],
      summary: ['M old/a.txt -> new/a.txt (+1 -1)'],
    });
  });

  it('refuses moving onto a directory, deleting a directory or a missing file, updating a missing file', () => {
    const move = patch('*** Update File: a', '*** Move to: d', '@@', '-x', '+y');
    expect(planError(move, { a: 'x\n', d: 'directory' })).toMatch(/^d: hunk 1 .*a directory exists/);
    expect(planError(patch('*** Delete File: d'), { d: 'directory' })).toMatch(
      /^d: hunk 1 \(patch line 2\): cannot delete: it is a directory/,
    );
    expect(planError(patch('*** Delete File: m'), { m: null })).toMatch(/^m: .*does not exist/);
    expect(planError(patch('*** Update File: m', '@@', '-a'), { m: null })).toMatch(
      /Use '\*\*\* Add File: m'/,
    );
    expect(planError(patch('*** Add File: d', '+x'), { d: 'directory' })).toMatch(/a directory exists there/);
  });

  it('runs ops in order against the virtual tree', () => {
    const text = patch(
      '*** Add File: a',
      '+one',
      '*** Update File: a',
      '@@',
      '-one',
      '+two',
      '*** Delete File: b',
      '*** Add File: b',
      '+again',
    );
    const result = plan(text, { a: null, b: 'old\n' });
    expect(result).toEqual({
      ok: true,
      changes: [
        { path: 'a', content: 'two\n' },
        { path: 'b', content: 'again\n' },
      ],
      summary: ['A a', 'M a (+1 -1)', 'D b', 'A b'],
    });
  });

  it('adds over an existing file and skips no-op round trips', () => {
    expect(updated(patch('*** Add File: a', '+new'), { a: 'old\n' }, 'a')).toBe('new\n');
    const roundTrip = plan(patch('*** Add File: t', '+x', '*** Delete File: t'), { t: null });
    expect(roundTrip).toEqual({ ok: true, changes: [], summary: ['A t', 'D t'] });
  });

  it('refuses when a touched path was not loaded', () => {
    expect(planError(patch('*** Delete File: a'), {})).toContain('was not loaded');
  });

  it('lists every path read or written', () => {
    const parsed = parsePatch(
      patch(
        '*** Add File: a',
        '+x',
        '*** Update File: b',
        '*** Move to: c',
        '@@',
        '-y',
        '*** Delete File: a',
      ),
    );
    expect(parsed.ok && patchPaths(parsed.ops)).toEqual(['a', 'b', 'c']);
  });
});
