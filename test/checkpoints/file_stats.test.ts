import { lstatSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileStatter } from '../../src/checkpoints/file_stats.js';
import { eventually } from '../support/processes.js';
import { tempDir } from '../support/runtime_fixtures.js';

/** 5,000 files in 50 folders (enough for the helper thread), a link, and a path that is not there. */
function manyFiles(): { root: string; paths: string[] } {
  const root = tempDir('lathe-stats-');
  const paths: string[] = [];
  for (let d = 0; d < 50; d++) {
    mkdirSync(join(root, `d${d}`));
    for (let f = 0; f < 100; f++) {
      writeFileSync(join(root, `d${d}`, `f${f}.txt`), 'x'.repeat(f));
      paths.push(`d${d}/f${f}.txt`);
    }
  }
  symlinkSync('d0/f1.txt', join(root, 'link'));
  // Both near the end, so the helper thread's half holds them.
  paths.push('link', 'gone.txt', 'd1/f1.txt/under-a-file');
  return { root, paths };
}

function expectTheStatsOf(
  root: string,
  paths: string[],
  list: Awaited<ReturnType<FileStatter['stat']>>,
): void {
  paths.forEach((path, i) => {
    const stat = path.endsWith('under-a-file')
      ? undefined
      : lstatSync(join(root, path), { throwIfNoEntry: false });
    if (!stat) {
      expect(list.at(i), path).toBeUndefined();
      return;
    }
    const seen = {
      size: stat.size,
      mtimeMs: stat.mtimeMs,
      ctimeMs: stat.ctimeMs,
      ino: stat.ino,
      mode: stat.mode,
    };
    expect(list.at(i), path).toEqual(seen);
    expect(list.matches(i, seen)).toBe(true);
    expect(list.matches(i, { ...seen, size: seen.size + 1 })).toBe(false);
  });
}

describe('the stats of many files', () => {
  const statters: FileStatter[] = [];
  afterEach(async () => {
    for (const statter of statters.splice(0)) await statter.close();
  });

  it('are the same as lstat gives, before and after a helper thread takes half of them', async () => {
    const { root, paths } = manyFiles();
    const statter = new FileStatter();
    statters.push(statter);
    // The first large list starts the thread and is done here alone.
    expectTheStatsOf(root, paths, await statter.stat(root, paths));
    await eventually(() => statter.helping);
    expectTheStatsOf(root, paths, await statter.stat(root, paths));
    writeFileSync(join(root, paths[4_990]), 'changed, longer than before');
    expectTheStatsOf(root, paths, await statter.stat(root, paths));
  });

  it('are taken here alone for a short list, and after the thread is closed', async () => {
    const { root, paths } = manyFiles();
    const statter = new FileStatter();
    statters.push(statter);
    expectTheStatsOf(root, paths.slice(0, 10), await statter.stat(root, paths.slice(0, 10)));
    expect(statter.helping).toBe(false);
    await statter.stat(root, paths);
    await eventually(() => statter.helping);
    await statter.close();
    expect(statter.helping).toBe(false);
    expectTheStatsOf(root, paths, await statter.stat(root, paths));
  });
});
