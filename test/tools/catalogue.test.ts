import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { builtinTools } from '../../src/tools/index.js';

/** The tool names a docs/tools.md row names, with its status. */
function catalogue(): Map<string, string> {
  const text = readFileSync(new URL('../../docs/tools.md', import.meta.url), 'utf8');
  const rows = new Map<string, string>();
  for (const line of text.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 4 || !cells[1].startsWith('`')) continue;
    for (const [, name] of cells[1].matchAll(/`([a-z_]+)`/g)) rows.set(name, cells[2]);
  }
  return rows;
}

describe('docs/tools.md', () => {
  const rows = catalogue();
  it('marks every registered tool available', () => {
    for (const tool of builtinTools()) expect(rows.get(tool.name), tool.name).toBe('available');
  });
  it('marks nothing available that is not registered', () => {
    const registered = new Set(builtinTools().map((t) => t.name));
    for (const [name, status] of rows)
      if (status === 'available') expect(registered.has(name), name).toBe(true);
  });
});
