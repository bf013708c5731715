import { describe, expect, it } from 'vitest';
import { renameLeftovers } from '../../src/lsp/rename_leftovers.js';

const edit = (line: number, character: number, length: number) => ({
  range: { start: { line, character }, end: { line, character: character + length } },
  newText: 'renamed',
});

describe('the uses a rename leaves', () => {
  it('are the whole-word places no edit covers', () => {
    const text = 'getSize(a);\n// getSize here\nmyGetSize(); getSizes(); $getSize; getSize_2;\nx.getSize\n';
    expect(renameLeftovers(text, 'getSize', [edit(0, 0, 7), edit(3, 2, 7)])).toEqual([
      { line: 1, character: 3 },
    ]);
  });

  it('are none when every use is edited, in CRLF text too', () => {
    const text = 'a = size\r\nb = size + size\r\n';
    expect(renameLeftovers(text, 'size', [edit(0, 4, 4), edit(1, 4, 4), edit(1, 11, 4)])).toEqual([]);
  });
});
