import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

const GOLDEN = fileURLToPath(new URL('../fixtures/lsp/golden/', import.meta.url));

/** Compares a result with its golden file; LATHE_UPDATE_GOLDEN=1 writes the file instead. */
export function expectGolden(name: string, actual: string): void {
  const path = `${GOLDEN}${name}`;
  if (process.env.LATHE_UPDATE_GOLDEN === '1') writeFileSync(path, actual);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}
