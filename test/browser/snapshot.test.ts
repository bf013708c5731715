import { describe, expect, it } from 'vitest';
import { filterTree, renderCapped, type TreeLine, treeDelta } from '../../src/browser/snapshot.js';

const tree: TreeLine[] = [
  [0, 'navigation [e1]'],
  [1, 'link "Home" [e2] -> /'],
  [0, 'main [e3]'],
  [1, 'heading "Orders" [level=1] [e4]'],
  [1, 'list [e5]'],
  [2, 'listitem "order 1" [e6]'],
  [2, 'listitem "order 2" [e7]'],
];

describe('snapshot text', () => {
  it('finds matching nodes under the chain of nodes that holds them', () => {
    expect(filterTree(tree, 'ORDER 2')).toEqual([
      [0, 'main [e3]'],
      [1, 'list [e5]'],
      [2, 'listitem "order 2" [e7]'],
    ]);
  });

  it('gives only removed and new lines, each new one under its parent', () => {
    const after: TreeLine[] = [...tree.slice(0, 6), [2, 'listitem "order 3" [e8]']];
    expect(treeDelta(tree, after)).toEqual([
      [2, '(removed) listitem "order 2" [e7]'],
      [0, '(in) main [e3]'],
      [1, '(in) list [e5]'],
      [2, '(new) listitem "order 3" [e8]'],
    ]);
    expect(treeDelta(tree, tree)).toEqual([]);
  });

  it('keeps a short tree whole and cuts a long one at the token cap, saying so', async () => {
    expect(await renderCapped(tree)).toBe(tree.map(([d, t]) => `${'  '.repeat(d)}- ${t}`).join('\n'));
    const long: TreeLine[] = Array.from({ length: 5_000 }, (_, i) => [1, `button "b${i}" [e${i}]`]);
    const text = await renderCapped(long, 1_000);
    expect(text.split('\n').length).toBeLessThan(5_000);
    expect(text).toMatch(/more lines left out \(snapshot capped at 1,000 tokens\)/);
  });
});
