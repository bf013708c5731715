// Language servers: typescript-language-server on a generated 500-file TypeScript project — cold
// start to the first definition, warm find_references, diagnostics after an edit, and the
// memory the servers add (RSS of their whole process group).

import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRuntime } from '../src/runtime/create_runtime.js';
import { tempDir } from '../test/support/runtime_fixtures.js';
import { median, timeRuns } from './stats.js';

const FILES = 500;
const RUNS = 15;

/** A project where each module imports the one before it and calls its function. */
function generateProject(): string {
  const root = tempDir('lathe-bench-lsp-');
  mkdirSync(join(root, 'src'));
  writeFileSync(
    join(root, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        target: 'ES2022',
        module: 'ES2022',
        moduleResolution: 'bundler',
        noEmit: true,
      },
      include: ['src'],
    }),
  );
  for (let i = 0; i < FILES; i++) {
    const previous = i === 0 ? '' : `import { step${i - 1} } from './m${i - 1}.js';\n`;
    const call = i === 0 ? 'return n + 1;' : `return step${i - 1}(n) * 2;`;
    writeFileSync(
      join(root, 'src', `m${i}.ts`),
      `${previous}\nexport interface Box${i} {\n  value: number;\n}\n\nexport function step${i}(n: number): number {\n  ${call}\n}\n\nexport const box${i}: Box${i} = { value: step${i}(${i}) };\n`,
    );
  }
  return root;
}

/** Resident memory (kB) of every process whose environment holds `marker` (the servers inherit it). */
function markedRssKb(marker: string): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (!readFileSync(`/proc/${entry}/environ`, 'latin1').includes(marker)) continue;
      const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${entry}/status`, 'utf8'));
      total += rss ? Number(rss[1]) : 0;
    } catch {
      // gone
    }
  }
  return total;
}

const editTimes = async (workspace: string, diagnosticsAfterEdit: boolean): Promise<number[]> => {
  const runtime = createRuntime({
    cwd: workspace,
    documentsRoot: tempDir('lathe-home-'),
    yolo: true,
    env: {},
    settings: { lsp: { diagnosticsAfterEdit } },
  });
  try {
    const target = 'src/m300.ts';
    await runtime.runTool('read_file', { path: target });
    let broken = false;
    return await timeRuns(RUNS, async () => {
      const [from, to] = broken
        ? ['return "x";', 'return step299(n) * 2;']
        : ['return step299(n) * 2;', 'return "x";'];
      const result = await runtime.runTool('edit_file', { path: target, old_string: from, new_string: to });
      if (result.isError || result.text.includes('\ndiagnostics: ') !== diagnosticsAfterEdit)
        throw new Error(result.text);
      broken = !broken;
    });
  } finally {
    await runtime.dispose();
  }
};

export async function benchLsp(): Promise<Array<Record<string, string | number>>> {
  const workspace = generateProject();
  const marker = `LATHE_BENCH_LSP=${process.pid}-${Date.now()}`;
  process.env.LATHE_BENCH_LSP = marker.split('=')[1];
  const runtime = createRuntime({
    cwd: workspace,
    documentsRoot: tempDir('lathe-home-'),
    features: ['lsp'],
    yolo: true,
    env: {},
  });
  const rows: Array<Record<string, string | number>> = [];
  try {
    const start = performance.now();
    const first = await runtime.runTool('lsp', {
      operation: 'definition',
      path: 'src/m250.ts',
      anchor: 'step249(n)',
    });
    if (first.isError) throw new Error(first.text);
    rows.push({
      case: `cold start to the first definition (${FILES} files)`,
      'median ms': Math.round(performance.now() - start),
      runs: 1,
    });

    const references = await timeRuns(RUNS, () =>
      runtime.runTool('find_references', { path: 'src/m100.ts', symbol: 'step100' }),
    );
    rows.push({ case: 'find_references, warm', 'median ms': Math.round(median(references)), runs: RUNS });

    rows.push({
      case: 'RSS the servers add (MB)',
      'median ms': Math.round(markedRssKb(marker) / 1024),
      runs: 1,
    });
  } finally {
    await runtime.dispose();
    delete process.env.LATHE_BENCH_LSP;
  }
  // The same edits with and without diagnostics after them: the difference is their latency.
  const withDiagnostics = median(await editTimes(workspace, true));
  const without = median(await editTimes(workspace, false));
  rows.push({
    case: 'edit_file with diagnostics after it, warm',
    'median ms': Math.round(withDiagnostics),
    runs: RUNS,
  });
  rows.push({
    case: 'edit_file without (lsp.diagnosticsAfterEdit false)',
    'median ms': Math.round(without),
    runs: RUNS,
  });
  return rows;
}
