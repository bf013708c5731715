import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDiff, replaceInFile } from '../../src/edit/search_replace/index.js';
import { createRuntime } from '../../src/runtime/create_runtime.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { searchReplaceBlock } from '../support/search_replace_diffs.js';

const block = searchReplaceBlock;

const FILE = 'alpha\nbeta\ngamma\n';
const GOOD = block(['alpha'], ['ALPHA']);

describe('a malformed block is refused, named by its number and diff line', () => {
  it.each([
    {
      name: 'a second block opened with a SEARCH marker of the wrong length',
      diff: `${GOOD}\n----- SEARCH\nbeta\n=======\nBETA\n+++++++ REPLACE\n`,
      block: 2,
      says: ['block 2, diff line 6', '`----- SEARCH` is not a marker', '5 marker characters, not 7'],
    },
    {
      name: 'a SEARCH marker of the wrong length before any block',
      diff: '-------- SEARCH\nalpha\n=======\nALPHA\n+++++++ REPLACE\n',
      block: 1,
      says: ['block 1, diff line 1', '8 marker characters'],
    },
    {
      name: 'a REPLACE marker of the wrong length closing a block',
      diff: `${GOOD}\n${block(['beta'], ['BETA'], '------- SEARCH', '++++++ REPLACE')}\n`,
      block: 2,
      says: ['block 2 (opened at diff line 6), diff line 10', '`++++++ REPLACE` is not a marker'],
    },
    {
      name: 'a SEARCH without its =======',
      diff: `${GOOD}\n------- SEARCH\nbeta\nBETA\n+++++++ REPLACE\n`,
      block: 2,
      says: [
        'block 2 (opened at diff line 6)',
        '`+++++++ REPLACE` at diff line 9 comes before the `=======`',
      ],
    },
    {
      name: 'a divider of the wrong length, named in the refusal',
      diff: '------- SEARCH\nalpha\n======\nALPHA\n+++++++ REPLACE\n',
      block: 1,
      says: ['diff line 5 comes before the `=======`', 'diff line 3 is no divider'],
    },
    {
      name: 'a ======= outside any block',
      diff: `${GOOD}\n=======\n`,
      block: 2,
      says: ['block 2, diff line 6', '`=======` stands outside a block'],
    },
    {
      name: 'a stray REPLACE marker',
      diff: `${GOOD}\n>>>>>>> REPLACE\n`,
      block: 2,
      says: ['block 2, diff line 6', '`>>>>>>> REPLACE` closes no block'],
    },
    {
      name: 'an indented marker outside a block',
      diff: `  ${GOOD}\n`,
      block: 1,
      says: ['block 1, diff line 1', 'it is indented'],
    },
    {
      name: 'a marker in lower case',
      diff: block(['alpha'], ['ALPHA'], '------- search'),
      block: 1,
      says: ['`------- search` is not a marker', 'the word in capitals'],
    },
    {
      name: 'a block left open',
      diff: `${GOOD}\n------- SEARCH\nbeta\n=======\nBETA\n`,
      block: 2,
      says: ['block 2 (opened at diff line 6) has no `+++++++ REPLACE`'],
    },
  ])('$name', ({ diff, block: n, says }) => {
    const r = replaceInFile(FILE, diff);
    expect(r).toMatchObject({ ok: false, block: n });
    expect(r).not.toHaveProperty('content');
    for (const s of says) expect(r.ok ? '' : r.error).toContain(s);
    expect(parseDiff(diff).ok).toBe(false);
  });
});

describe('what stays content', () => {
  it.each([
    {
      name: 'SEARCH and REPLACE marker lines, and =======, in REPLACE text',
      diff: block(['alpha'], ['------- SEARCH', '<<<<<<< SEARCH', '=======', 'x']),
      search: ['alpha'],
      replace: ['------- SEARCH', '<<<<<<< SEARCH', '=======', 'x'],
    },
    {
      name: 'a SEARCH marker line in SEARCH',
      diff: block(['------- SEARCH', 'a'], ['b']),
      search: ['------- SEARCH', 'a'],
      replace: ['b'],
    },
    {
      name: 'indented marker-shaped lines in a block (indentation in SEARCH is never wrong)',
      diff: block(['  +++++++ REPLACE', '\t----- SEARCH'], ['  +++ REPLACE']),
      search: ['  +++++++ REPLACE', '\t----- SEARCH'],
      replace: ['  +++ REPLACE'],
    },
    {
      name: 'runs of = of other lengths in a block (headings underlined in Markdown or reST)',
      diff: block(['Title', '====='], ['Title', '=========']),
      search: ['Title', '====='],
      replace: ['Title', '========='],
    },
    {
      name: 'text outside blocks that looks like no marker',
      diff: `Here it is:\n\`\`\`\n${block(['a'], ['b'])}\n\`\`\`\n--- a/x\n+++ b/x\n`,
      search: ['a'],
      replace: ['b'],
    },
  ])('$name', ({ diff, search, replace }) => {
    const r = parseDiff(diff);
    if (!r.ok) throw new Error(r.error);
    expect(r.blocks.map((b) => ({ search: b.search, replace: b.replace }))).toEqual([{ search, replace }]);
  });

  it('a literal REPLACE marker line of the file is found by writing it indented in SEARCH', () => {
    const file = 'x\n+++++++ REPLACE\ny\n';
    const r = replaceInFile(file, block(['x', ' +++++++ REPLACE'], ['x', 'z']));
    expect(r).toMatchObject({ ok: true, content: 'x\nz\ny\n' });
  });
});

describe('markers that are accepted', () => {
  const lines = (...ls: string[]) => `${ls.join('\n')}\n`;
  it.each([
    {
      name: 'a literal ======= line may appear in REPLACE text',
      diff: block(['a'], ['<<<<<<< ours', 'a', '=======', 'b', '>>>>>>> theirs']),
      expected: lines('<<<<<<< ours', 'a', '=======', 'b', '>>>>>>> theirs', 'b'),
    },
    {
      name: 'legacy <<<<<<< SEARCH and >>>>>>> REPLACE markers',
      diff: block(['a'], ['A'], '<<<<<<< SEARCH', '>>>>>>> REPLACE'),
      expected: lines('A', 'b'),
    },
    {
      name: 'a trailing > after SEARCH and REPLACE',
      diff: block(['b'], ['B'], '------- SEARCH>', '+++++++ REPLACE>'),
      expected: lines('a', 'B'),
    },
    {
      name: 'trailing whitespace on marker lines',
      diff: '------- SEARCH  \nb\n======= \t\nB\n+++++++ REPLACE \n',
      expected: lines('a', 'B'),
    },
    {
      name: 'a CRLF diff, read as lines',
      diff: '------- SEARCH\r\nb\r\n=======\r\nB\r\n+++++++ REPLACE\r\n',
      expected: lines('a', 'B'),
    },
    {
      name: 'text outside blocks, ignored',
      diff: `Here is the edit:\n${block(['a'], ['A'])}\nand that is all.\n`,
      expected: lines('A', 'b'),
    },
    {
      name: 'an empty line between the markers: one blank REPLACE line',
      diff: block(['a'], ['']),
      expected: lines('', 'b'),
    },
  ])('$name', ({ diff, expected }) => {
    expect(replaceInFile(lines('a', 'b'), diff)).toMatchObject({ ok: true, content: expected });
  });

  it('keeps SEARCH and REPLACE lines with their indentation', () => {
    const r = parseDiff(block(['  a', '\tb'], ['  c']));
    if (!r.ok) throw new Error(r.error);
    expect(r.blocks.map((b) => [b.search, b.replace])).toEqual([[['  a', '\tb'], ['  c']]]);
  });
});

describe('replace_in_file writes nothing when one block is malformed', () => {
  it('leaves the file as it was although the first block would apply', async () => {
    const dir = tempDir();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'f.txt'), FILE);
    const runtime = createRuntime({
      cwd: dir,
      documentsRoot: tempDir('lathe-home-'),
      approve: ['edit'],
      env: {},
    });
    const r = await runtime.runTool('replace_in_file', {
      path: 'f.txt',
      diff: `${GOOD}\n----- SEARCH\nbeta\n=======\nBETA\n+++++++ REPLACE\n`,
    });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^f\.txt was not changed\. block 2, diff line 6: `----- SEARCH` is not a marker/);
    expect(readFileSync(join(dir, 'f.txt'), 'utf8')).toBe(FILE);
    await runtime.dispose();
  });
});
