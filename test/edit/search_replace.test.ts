import { describe, expect, it } from 'vitest';
import { formatReport, type ReplaceResult, replaceInFile } from '../../src/edit/search_replace/index.js';
import { searchReplaceBlock } from '../support/search_replace_diffs.js';

const block = searchReplaceBlock;

function diff(...blocks: string[]): string {
  return `${blocks.join('\n')}\n`;
}

/** A file with LF line breaks and a final newline. */
function lines(...ls: string[]): string {
  return `${ls.join('\n')}\n`;
}

function content(r: ReplaceResult): string {
  if (!r.ok) throw new Error(`expected success, got: ${r.error}`);
  return r.content;
}

function error(r: ReplaceResult): string {
  if (r.ok) throw new Error(`expected a refusal, got: ${JSON.stringify(r.content)}`);
  return r.error;
}

const SRC = lines(
  'function f() {',
  '    const x = 1;',
  '    return x;',
  '}',
  '',
  'function g() {',
  '\treturn 2;',
  '}',
);

interface Edit {
  name: string;
  file: string;
  diff: string;
  expected: string;
}

const edits: Edit[] = [
  {
    name: 'a SEARCH line matches the beginning part of a file line',
    file: SRC,
    diff: diff(block(['const x'], ['    const x = 2;'])),
    expected: SRC.replace('const x = 1;', 'const x = 2;'),
  },
  {
    name: 'leading indentation may be omitted from SEARCH',
    file: SRC,
    diff: diff(block(['const x = 1;', 'return x;'], ['    return 1;'])),
    expected: lines('function f() {', '    return 1;', '}', '', 'function g() {', '\treturn 2;', '}'),
  },
  {
    name: 'indentation in SEARCH that differs from the file still matches',
    file: SRC,
    diff: diff(block(['\t\t\tconst x = 1;'], ['    const x = 3;'])),
    expected: SRC.replace('const x = 1;', 'const x = 3;'),
  },
  {
    name: 'trailing spaces and tabs of a SEARCH line are ignored',
    file: SRC,
    diff: diff(block(['return x;  \t '], ['    return x + 1;'])),
    expected: SRC.replace('return x;', 'return x + 1;'),
  },
  {
    name: 'a blank SEARCH line matches a whitespace-only file line',
    file: lines('a', ' \t ', 'b'),
    diff: diff(block(['a', '', 'b'], ['ab'])),
    expected: lines('ab'),
  },
  {
    name: 'a blank line at the start of SEARCH is part of the matched lines',
    file: SRC,
    diff: diff(block(['', 'function g() {'], ['function h() {'])),
    expected: lines(
      'function f() {',
      '    const x = 1;',
      '    return x;',
      '}',
      'function h() {',
      '\treturn 2;',
      '}',
    ),
  },
  {
    name: 'a blank line at the end of SEARCH is part of the matched lines',
    file: SRC,
    diff: diff(block(['return x;', '}', ''], ['    return x;', '}'])),
    expected: lines(
      'function f() {',
      '    const x = 1;',
      '    return x;',
      '}',
      'function g() {',
      '\treturn 2;',
      '}',
    ),
  },
  {
    name: 'REPLACE lines are written verbatim with their own indentation',
    file: SRC,
    diff: diff(block(['return 2;'], ['  \treturn 3;  '])),
    expected: SRC.replace('\treturn 2;', '  \treturn 3;  '),
  },
  {
    name: 'an empty REPLACE deletes the matched lines',
    file: SRC,
    diff: diff(block(['const x = 1;'], [])),
    expected: lines('function f() {', '    return x;', '}', '', 'function g() {', '\treturn 2;', '}'),
  },
  {
    name: 'one empty line in REPLACE writes one blank line',
    file: SRC,
    diff: diff(block(['const x = 1;'], [''])),
    expected: SRC.replace('    const x = 1;', ''),
  },
  {
    name: 'blocks that touch are applied together',
    file: lines('a1', 'a2', 'a3', 'a4'),
    diff: diff(block(['a1', 'a2'], ['b1']), block(['a3', 'a4'], ['b3'])),
    expected: lines('b1', 'b3'),
  },
  {
    name: 'blocks given out of file order are applied to their own places',
    file: lines('a1', 'a2', 'a3', 'a4', 'a5'),
    diff: diff(block(['a4'], ['b4']), block(['a1'], ['b1', 'b1+']), block(['a3'], [])),
    expected: lines('b1', 'b1+', 'a2', 'b4', 'a5'),
  },
  {
    name: 'blocks whose SEARCH lines are prefixes of one another each find their own line',
    file: lines('foo(1);', 'foobar();', 'foo', 'end'),
    diff: diff(block(['foo('], ['A']), block(['foob'], ['B']), block(['foo', 'end'], ['C'])),
    expected: lines('A', 'B', 'C'),
  },
  {
    name: 'SKIP replaces everything from head to tail, with no line skipped',
    file: lines('x', 'head', 'tail', 'y'),
    diff: diff(block(['head', '....... SKIP', 'tail'], ['new'])),
    expected: lines('x', 'new', 'y'),
  },
  {
    name: 'SKIP replaces many skipped lines',
    file: lines('x', 'head', ...Array.from({ length: 100 }, (_, i) => `mid ${i}`), 'tail', 'y'),
    diff: diff(block(['head', '....... SKIP', 'tail'], ['new'])),
    expected: lines('x', 'new', 'y'),
  },
  {
    name: 'SKIP stops at the nearest following match of its tail',
    file: lines('head', 'a', 'tail', 'b', 'tail', 'c'),
    diff: diff(block(['head', '....... SKIP', 'tail'], ['new'])),
    expected: lines('new', 'b', 'tail', 'c'),
  },
  {
    name: 'several SKIP lines in one block each take the nearest next segment',
    file: lines('s', 'h', '1', 'm', '2', '3', 't', 'm', 't', 'e'),
    diff: diff(block(['h', '....... SKIP', 'm', '....... SKIP', 't'], ['X'])),
    expected: lines('s', 'X', 'm', 't', 'e'),
  },
  {
    name: 'a SKIP line with trailing whitespace is still a SKIP line',
    file: lines('head', 'mid', 'tail'),
    diff: diff(block(['head', '....... SKIP \t', 'tail'], [])),
    expected: '',
  },
  {
    name: 'a file without a final newline keeps none when its last line is replaced',
    file: 'a\nb',
    diff: diff(block(['b'], ['B', 'C'])),
    expected: 'a\nB\nC',
  },
  {
    name: 'a file without a final newline keeps none when its last line is deleted',
    file: 'a\nb\nc',
    diff: diff(block(['c'], [])),
    expected: 'a\nb',
  },
];

describe('replaceInFile edits', () => {
  it.each(edits)('$name', ({ file, diff: d, expected }) => {
    expect(content(replaceInFile(file, d))).toBe(expected);
  });
});

interface Refusal {
  name: string;
  file: string;
  diff: string;
  /** Substrings the error must contain. */
  says: string[];
  block?: number;
}

const refusals: Refusal[] = [
  {
    name: 'a SEARCH line never matches from the middle of a file line',
    file: SRC,
    diff: diff(block(['x = 1;'], ['y'])),
    says: ['matches nowhere'],
  },
  {
    name: 'a blank SEARCH line does not match a non-blank file line',
    file: lines('a', 'x', 'b'),
    diff: diff(block(['a', '', 'b'], ['ab'])),
    says: ['matches nowhere', 'SEARCH line 2: ``', 'file line 2:   `x`'],
  },
  {
    name: 'a blank line at the start of SEARCH must match a blank file line',
    file: lines('x', 'foo', 'y'),
    diff: diff(block(['', 'foo'], ['bar'])),
    says: ['matches nowhere', 'SEARCH line 1: ``', 'file line 1:   `x`'],
  },
  {
    name: 'a block matching 2 places lists both line numbers',
    file: SRC,
    diff: diff(block(['}'], ['};'])),
    says: ['block 1 of 1: SEARCH matches 2 places: lines 4, 8 — add surrounding lines to make it unique'],
  },
  {
    name: 'a block matching 3 places lists all three line numbers',
    file: lines('x', 'end', 'y', 'end', 'z', 'end'),
    diff: diff(block(['end'], ['END'])),
    says: ['SEARCH matches 3 places: lines 2, 4, 6'],
  },
  {
    name: 'overlapping candidates are counted separately',
    file: lines('a', 'a', 'a'),
    diff: diff(block(['a', 'a'], ['b'])),
    says: ['SEARCH matches 2 places: lines 1, 2'],
  },
  {
    name: 'no match shows the nearest near-miss with the first differing line',
    file: SRC,
    diff: diff(block(['function g() {', 'return 3;', '}'], ['x'])),
    says: [
      'SEARCH (3 lines) matches nowhere',
      'file line 6 matches SEARCH line 1',
      'SEARCH line 2: `return 3;`',
      'file line 7:   `→return 2;`',
      '→ marks a tab',
    ],
  },
  {
    name: 'a near-miss whose run ends SEARCH shows the line before it',
    file: SRC,
    diff: diff(block(['const y = 1;', 'return x;', '}'], ['x'])),
    says: [
      'file lines 3-4 match SEARCH lines 2-3',
      'SEARCH line 1: `const y = 1;`',
      'file line 2:   `    const x = 1;`',
    ],
  },
  {
    name: 'an empty SEARCH section is refused',
    file: SRC,
    diff: diff(block([], ['x'])),
    says: ['SEARCH is empty', 'write_to_file'],
  },
  {
    name: 'blocks that overlap are refused, naming both and their ranges',
    file: lines('a1', 'a2', 'a3', 'a4'),
    diff: diff(block(['a1', 'a2', 'a3'], ['x']), block(['a3', 'a4'], ['y'])),
    says: ['block 1 (lines 1-3) and block 2 (lines 3-4) overlap'],
  },
  {
    name: 'when block 2 of 3 fails, the refusal names it',
    file: lines('a', 'b', 'c'),
    diff: diff(block(['a'], ['A']), block(['nothing'], ['B']), block(['c'], ['C'])),
    says: ['block 2 of 3:', 'No block was applied'],
    block: 2,
  },
  {
    name: 'SKIP uniqueness is decided on the head: two heads with a tail are ambiguous',
    file: lines('head', 'x', 'tail', 'head', 'y', 'tail'),
    diff: diff(block(['head', '....... SKIP', 'tail'], ['new'])),
    says: ['matches 2 places: lines 1, 4'],
  },
  {
    name: 'SKIP with an empty head is refused',
    file: lines('a', 'b'),
    diff: diff(block(['....... SKIP', 'b'], ['x'])),
    says: ['SEARCH starts with `....... SKIP`'],
  },
  {
    name: 'SKIP with an empty tail is refused',
    file: lines('a', 'b'),
    diff: diff(block(['a', '....... SKIP'], ['x'])),
    says: ['SEARCH ends with `....... SKIP`'],
  },
  {
    name: 'SKIP whose tail does not follow the head is refused with a near-miss',
    file: lines('tail', 'head', 'x'),
    diff: diff(block(['head', '....... SKIP', 'tail'], ['new'])),
    says: ['match at line 2', 'after SKIP 1', 'matches nowhere in the file after line 2'],
  },
  {
    name: 'a block without a closing REPLACE marker is a parse error naming the block',
    file: lines('a'),
    diff: `${block(['a'], ['b'])}\n------- SEARCH\na\n=======\nb\n`,
    says: ['block 2 (opened at diff line 6) has no `+++++++ REPLACE`'],
    block: 2,
  },
  {
    name: 'a block without ======= is a parse error naming the block',
    file: lines('a'),
    diff: '------- SEARCH\na\n',
    says: ['block 1 (opened at diff line 1) has no `=======`'],
    block: 1,
  },
  {
    name: 'a diff without blocks is refused',
    file: lines('a'),
    diff: 'just some text\n',
    says: ['no SEARCH/REPLACE block found'],
  },
  {
    name: 'nothing matches in an empty file',
    file: '',
    diff: diff(block([''], ['x'])),
    says: ['matches nowhere'],
  },
];

describe('replaceInFile refusals', () => {
  it.each(refusals)('$name', ({ file, diff: d, says, block: b }) => {
    const r = replaceInFile(file, d);
    const text = error(r);
    for (const s of says) expect(text).toContain(s);
    expect(r).not.toHaveProperty('content');
    if (b !== undefined) expect(r).toHaveProperty('block', b);
  });
});

describe('replaceInFile report', () => {
  const file = lines(...Array.from({ length: 20 }, (_, i) => `line ${i + 1}`));
  const r = replaceInFile(
    file,
    diff(
      block(['line 15', '....... SKIP', 'line 18'], ['fifteen']),
      block(['line 3', 'line 4'], ['three', 'three+', 'three++']),
      block(['line 8'], []),
    ),
  );

  it.each([
    { block: 1, original: { start: 15, end: 18 }, replaced: { start: 15, end: 15 }, skipped: [2] },
    { block: 2, original: { start: 3, end: 4 }, replaced: { start: 3, end: 5 }, skipped: [] },
    { block: 3, original: { start: 8, end: 8 }, replaced: { start: 9, end: 8 }, skipped: [] },
  ])('reports original and new ranges of block $block', (expected) => {
    if (!r.ok) throw new Error(r.error);
    expect(r.blocks[expected.block - 1]).toEqual(expected);
  });

  it('formats one short line per block', () => {
    if (!r.ok) throw new Error(r.error);
    expect(formatReport(r.blocks)).toBe(
      [
        'block 1: lines 15-18 → 15 (SKIP removed 2 lines)',
        'block 2: lines 3-4 → 3-5',
        'block 3: line 8 → deleted',
      ].join('\n'),
    );
  });

  it('reports how many lines each of several SKIPs covered', () => {
    const s = replaceInFile(
      lines('h', '1', 'm', '2', '3', 't'),
      diff(block(['h', '....... SKIP', 'm', '....... SKIP', 't'], [])),
    );
    if (!s.ok) throw new Error(s.error);
    expect(s.blocks[0].skipped).toEqual([1, 2]);
  });

  it('lists every candidate of an ambiguous block in the result', () => {
    const s = replaceInFile(lines('a', 'b', 'a', 'b', 'a'), diff(block(['a'], ['x'])));
    expect(s).toMatchObject({ ok: false, block: 1, candidates: [1, 3, 5] });
  });
});
