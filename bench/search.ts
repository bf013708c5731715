// search_files and glob through runTool against ripgrep run directly, on a generated tree.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime } from '../src/runtime/create_runtime.js';
import { ripgrepPath } from '../src/tools/search/ripgrep.js';
import { generateTree } from './generated_tree.js';
import { median, printTable, timeRuns } from './stats.js';

const FILES = 50_000;
const RUNS = 7;

function rgDirect(rg: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(rg, args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.resume();
    child.on('error', reject);
    child.on('close', () => resolve());
  });
}

export async function benchSearch(): Promise<Array<Record<string, string | number>>> {
  const root = mkdtempSync(join(tmpdir(), 'lathe-bench-search-'));
  try {
    generateTree(root, FILES);
    const runtime = createRuntime({
      cwd: root,
      documentsRoot: mkdtempSync(join(tmpdir(), 'lathe-bench-home-')),
    });
    const rg = await ripgrepPath();
    const cases = [
      {
        name: 'search_files content',
        lathe: () => runtime.runTool('search_files', { regex: 'needleValue' }),
        direct: ['--hidden', '--line-number', '--with-filename', '--no-heading', 'needleValue', '.'],
      },
      {
        name: 'search_files files_with_matches',
        lathe: () =>
          runtime.runTool('search_files', { regex: 'computeDigest', output_mode: 'files_with_matches' }),
        direct: ['--hidden', '--files-with-matches', 'computeDigest', '.'],
      },
      // glob answers newest first, so the like-for-like ripgrep run sorts by modification time too.
      {
        name: 'glob **/*.ts (10,000 matches) vs rg --sortr modified',
        lathe: () => runtime.runTool('glob', { pattern: '**/*.ts' }),
        direct: ['--hidden', '--files', '--glob', '**/*.ts', '--sortr', 'modified'],
      },
      {
        name: 'glob **/*.ts (10,000 matches) vs unsorted rg --files',
        lathe: () => runtime.runTool('glob', { pattern: '**/*.ts' }),
        direct: ['--hidden', '--files', '--glob', '**/*.ts'],
      },
      {
        name: 'glob pkg3/**/file3*.py vs rg --sortr modified',
        lathe: () => runtime.runTool('glob', { pattern: 'pkg3/**/file3*.py' }),
        direct: ['--hidden', '--files', '--glob', 'pkg3/**/file3*.py', '--sortr', 'modified'],
      },
    ];
    const rows: Array<Record<string, string | number>> = [];
    for (const c of cases) {
      // Interleave the two so that cache state and machine load affect both alike.
      const latheTimes: number[] = [];
      const rgTimes: number[] = [];
      for (let i = 0; i <= RUNS; i++) {
        const [a] = await timeRuns(1, c.lathe, 0);
        const [b] = await timeRuns(1, () => rgDirect(rg, c.direct, root), 0);
        if (i === 0) continue;
        latheTimes.push(a);
        rgTimes.push(b);
      }
      const l = median(latheTimes);
      const r = median(rgTimes);
      rows.push({
        case: c.name,
        'lathe ms': l,
        'rg ms': r,
        ratio: `${(l / r).toFixed(2)}×`,
        target: l / r <= 1.3 ? 'ok (≤1.3×)' : 'OVER 1.3×',
      });
    }
    return rows;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printTable(`search: ${FILES.toLocaleString('en-US')} files, medians of ${RUNS}`, await benchSearch());
}
