import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/**
 * Every module a file of src/ (`cli/main.ts`) loads by static (non-type) imports, as paths
 * below src/, and the packages they name: what is loaded before any dynamic import runs.
 */
export function staticGraph(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(
      /^import (?!type\b)[^'"]*?from '([^']+)';/gm,
    )) {
      if (!specifier.startsWith('.')) {
        packages.add(specifier);
        continue;
      }
      const base = resolve(dirname(file), specifier.replace(/\.js$/, ''));
      const target = [`${base}.ts`, `${base}.tsx`].find(existsSync);
      if (target) visit(target);
    }
  };
  visit(resolve(SRC, entry));
  return { files: [...files].map((f) => f.slice(SRC.length)), packages: [...packages] };
}
