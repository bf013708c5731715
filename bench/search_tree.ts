// `lathe tool glob` and `lathe tool search_files` (the built command, start-up included) against
// bare ripgrep on a generated tree of LATHE_BENCH_TREE_FILES files (default 200,000), made in a
// temp folder: once as a plain folder (ripgrep applies the .gitignore) and once as a git
// repository with every file committed (git decides what is ignored). Runs are interleaved
// (lathe, rg, lathe, rg …) so load on the machine falls on both alike; the ratio is of medians of
// the same run. Each round also times lathe in an empty folder, so the ratio less start-up (glob's
// target: within 1.5× of `rg --files`) is of the same moment. With LATHE_BENCH_BASELINE (an
// earlier build's dist/bin/lathe.js) that build is timed in the same rounds.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ripgrepPath } from '../src/tools/search/ripgrep.js';
import { generateTree } from './generated_tree.js';
import { median, printTable } from './stats.js';

const FILES = Number(process.env.LATHE_BENCH_TREE_FILES ?? 200_000);
const RUNS = 5;
const BIN = fileURLToPath(new URL('../dist/bin/lathe.js', import.meta.url));
const BASELINE = process.env.LATHE_BENCH_BASELINE;
/** Prints the process's peak RSS (KB) on stderr as it exits: lathe's own, not its children's. */
const PEAK_RSS = `data:text/javascript,process.on('exit',()=>process.stderr.write('\\npeak-rss-kb:'+process.resourceUsage().maxRSS+'\\n'))`;

interface Timed {
  ms: number;
  rssMb?: number;
}

function timed(argv: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(argv[0], argv.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stdout.resume();
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', () => {
      const ms = performance.now() - start;
      const rss = /peak-rss-kb:(\d+)/.exec(stderr)?.[1];
      resolve({ ms, ...(rss ? { rssMb: Number(rss) / 1024 } : {}) });
    });
  });
}

const latheArgv = (bin: string, tool: string, input: object) => [
  process.execPath,
  '--import',
  PEAK_RSS,
  bin,
  'tool',
  tool,
  '--input',
  JSON.stringify(input),
];

interface Case {
  name: string;
  tool: string;
  input: object;
  rg: string[];
}

const CASES: Case[] = [
  { name: 'glob **/*.ts', tool: 'glob', input: { pattern: '**/*.ts' }, rg: ['--files', '-g', '**/*.ts'] },
  { name: 'glob **/*', tool: 'glob', input: { pattern: '**/*' }, rg: ['--files', '-g', '**/*'] },
  {
    name: 'glob pkg3/**/file3*.py',
    tool: 'glob',
    input: { pattern: 'pkg3/**/file3*.py' },
    rg: ['--files', '-g', 'pkg3/**/file3*.py'],
  },
  {
    name: 'glob pkg1?/**/*.ts (10,000 matches, newest first)',
    tool: 'glob',
    input: { pattern: 'pkg1?/**/*.ts' },
    rg: ['--files', '-g', 'pkg1?/**/*.ts'],
  },
  {
    name: 'search_files needleValue',
    tool: 'search_files',
    input: { regex: 'needleValue' },
    rg: ['needleValue'],
  },
  {
    name: 'search_files needleValue, file_pattern *.ts',
    tool: 'search_files',
    input: { regex: 'needleValue', file_pattern: '*.ts' },
    rg: ['-g', '*.ts', 'needleValue'],
  },
];

/** `lathe tool glob` in an empty folder: the start-up every case pays. */
const floor = (bin: string, empty: string, env: NodeJS.ProcessEnv) =>
  timed(latheArgv(bin, 'glob', { pattern: '*.none' }), empty, env);

async function measure(root: string, label: string, rg: string, env: NodeJS.ProcessEnv) {
  const rows: Array<Record<string, string | number>> = [];
  const empty = mkdtempSync(join(tmpdir(), 'lathe-bench-empty-'));
  for (const c of CASES) {
    const lathe: Timed[] = [];
    const base: Timed[] = [];
    const bare: Timed[] = [];
    /** Per round: lathe's time less its start-up in that round (glob's target leaves start-up out). */
    const own: number[] = [];
    const baseOwn: number[] = [];
    for (let i = 0; i <= RUNS; i++) {
      const a = await timed(latheArgv(BIN, c.tool, c.input), root, env);
      const b = await timed([rg, ...c.rg], root, env);
      const f = await floor(BIN, empty, env);
      const z = BASELINE ? await timed(latheArgv(BASELINE, c.tool, c.input), root, env) : undefined;
      const zf = BASELINE ? await floor(BASELINE, empty, env) : undefined;
      if (i === 0) continue; // the first round warms the caches
      lathe.push(a);
      bare.push(b);
      own.push(a.ms - f.ms);
      if (z && zf) {
        base.push(z);
        baseOwn.push(z.ms - zf.ms);
      }
    }
    const l = median(lathe.map((t) => t.ms));
    const r = median(bare.map((t) => t.ms));
    const row: Record<string, string | number> = {
      tree: label,
      case: c.name,
      'lathe ms': l,
      'rg ms': r,
      ratio: `${(l / r).toFixed(2)}×`,
      'ratio less start-up': `${(median(own) / r).toFixed(2)}×`,
      'lathe peak RSS MB': Math.max(...lathe.map((t) => t.rssMb ?? 0)),
    };
    if (BASELINE) {
      row['baseline ms'] = median(base.map((t) => t.ms));
      row['baseline ratio less start-up'] = `${(median(baseOwn) / r).toFixed(2)}×`;
      row['baseline peak RSS MB'] = Math.max(...base.map((t) => t.rssMb ?? 0));
    }
    rows.push(row);
  }
  rmSync(empty, { recursive: true, force: true });
  return rows;
}

/** The start-up floor on its own, in the last rounds. */
async function startUpFloor(env: NodeJS.ProcessEnv): Promise<Record<string, string | number>> {
  const empty = mkdtempSync(join(tmpdir(), 'lathe-bench-empty-'));
  const times: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const t = await floor(BIN, empty, env);
    if (i > 0) times.push(t.ms);
  }
  rmSync(empty, { recursive: true, force: true });
  return { tree: 'empty folder', case: 'lathe tool glob (start-up floor)', 'lathe ms': median(times) };
}

export async function benchSearchTree(): Promise<Array<Record<string, string | number>>> {
  if (!existsSync(BIN)) throw new Error('dist/ is missing: run `npm run build` first');
  const env = { ...process.env, LATHE_HOME: mkdtempSync(join(tmpdir(), 'lathe-bench-home-')) };
  const rg = await ripgrepPath();
  const rows: Array<Record<string, string | number>> = [];
  const root = mkdtempSync(join(tmpdir(), 'lathe-bench-tree-'));
  try {
    generateTree(root, FILES);
    writeFileSync(join(root, '.gitignore'), 'node_modules/\n*.log\n');
    rows.push(...(await measure(root, 'folder', rg, env)));
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
    git('init', '-q');
    git('add', '-A');
    // No automatic gc: one left running in the background would hold the folder at the end.
    git(
      '-c',
      'gc.auto=0',
      '-c',
      'user.name=bench',
      '-c',
      'user.email=bench@lathe.invalid',
      'commit',
      '-qm',
      'tree',
    );
    rows.push(...(await measure(root, 'git repository', rg, env)));
    rows.push(await startUpFloor(env));
  } finally {
    rmSync(root, { recursive: true, force: true, maxRetries: 5 });
  }
  // Every row gets every column (the start-up row has no ripgrep figures).
  return rows.map((row) => ({ ...Object.fromEntries(Object.keys(rows[0]).map((k) => [k, ''])), ...row }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printTable(
    `glob and search_files (lathe tool) vs rg, ${FILES.toLocaleString('en-US')} files, medians of ${RUNS}`,
    await benchSearchTree(),
  );
}
