import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('temp files', () => {
  // A fixed name under /tmp can be raced or pre-created by another user: mkdtemp (0700) cannot.
  it('are never made at a fixed path under the temp folder', () => {
    const offenders = sourceFiles(SRC).filter((file) => {
      // mkdtemp's prefix is no fixed path: the folder gets a random suffix.
      const text = readFileSync(file, 'utf8').replace(
        /mkdtemp(Sync)?\(\s*join\(\s*(os\.)?tmpdir\(\)\s*,/g,
        '',
      );
      return /['"`]\/(var\/)?tmp\/[^'"`]/.test(text) || /join\(\s*(os\.)?tmpdir\(\)\s*,\s*['"`]/.test(text);
    });
    expect(offenders).toEqual([]);
  });
});
