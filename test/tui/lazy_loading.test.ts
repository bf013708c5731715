import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { lathe } from '../support/cli.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Every module a file loads by static (non-type) imports, and the packages they name. */
function staticGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const source = readFileSync(file, 'utf8');
    for (const [, specifier] of source.matchAll(/^import (?!type\b)[^'"]*?from '([^']+)';/gm)) {
      if (!specifier.startsWith('.')) {
        packages.add(specifier);
        continue;
      }
      const base = resolve(dirname(file), specifier.replace(/\.js$/, ''));
      const target = [`${base}.ts`, `${base}.tsx`].find(existsSync);
      if (target) visit(target);
    }
  };
  visit(entry);
  return { files, packages };
}

describe('start-up cost', () => {
  it('loads Ink, React and the UI only for the interactive UI, never for other commands', () => {
    for (const entry of [
      'cli/main.ts',
      'cli/program.ts',
      'cli/headless/run.ts',
      'cli/commands/tools.ts',
      'runtime/create_runtime.ts',
    ]) {
      const { files, packages } = staticGraph(join(SRC, entry));
      expect(
        [...files].filter((f) => f.includes('/tui/')),
        entry,
      ).toEqual([]);
      expect(
        [...packages].filter((p) => p === 'ink' || p === 'react'),
        entry,
      ).toEqual([]);
    }
  });

  it('says the interactive UI needs a terminal when there is none', () => {
    const r = lathe([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the interactive UI needs a terminal');
  });
});
