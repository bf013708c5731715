import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { replaceInFile } from '../src/edit/search_replace/index.js';
import { type BenchRow, median } from './stats.js';

export type Row = BenchRow;

const SIZES = [1_000, 10_000, 100_000, 1_000_000] as const;
const BLOCK_COUNTS = [1, 10, 50] as const;
/** Lines per SEARCH (and REPLACE) section. */
const BLOCK_LINES = 3;

/** A file of distinct, indented lines, so every block below matches exactly one place. */
function makeFile(lines: number): string {
  const out: string[] = new Array(lines);
  for (let i = 0; i < lines; i++) {
    const indent = i % 4 === 0 ? '' : '    '.repeat(i % 3);
    out[i] = `${indent}const value${i} = compute(${i}, 'item-${(i * 7919) % 100_003}');`;
  }
  return `${out.join('\n')}\n`;
}

/** `count` blocks spread evenly over the file; SEARCH lines omit the indentation. */
function makeDiff(lines: number, count: number): string {
  const parts: string[] = [];
  for (let b = 0; b < count; b++) {
    const at = Math.floor(((b + 0.5) * lines) / count);
    parts.push('------- SEARCH');
    for (let k = 0; k < BLOCK_LINES; k++) {
      const i = at + k;
      parts.push(`const value${i} = compute(${i}, 'item-${(i * 7919) % 100_003}');`);
    }
    parts.push('=======');
    for (let k = 0; k < BLOCK_LINES; k++) parts.push(`    const value${at + k} = 0;`);
    parts.push('+++++++ REPLACE');
  }
  return `${parts.join('\n')}\n`;
}

/**
 * Collects earlier runs' garbage (a 1M-line run leaves a ~55 MB output string behind) and lets
 * the background sweeper finish, so a timed run does not pay for its predecessors.
 */
async function settle(): Promise<void> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (() => void) | undefined;
  gc?.();
  await new Promise((resolve) => setTimeout(resolve, 10));
}

function runsFor(lines: number): number {
  return lines >= 1_000_000 ? 9 : lines >= 100_000 ? 21 : 41;
}

const name = (lines: number, blocks: number) =>
  `replace_in_file ${blocks} block${blocks === 1 ? '' : 's'} / ${lines.toLocaleString('en-US')} lines`;

/** Median wall time of one `replaceInFile` call, after three warm-up calls. */
async function timeReplace(file: string, diff: string, runs: number): Promise<number> {
  for (let w = 0; w < 3; w++) {
    const r = replaceInFile(file, diff);
    if (!r.ok) throw new Error(`bench setup is wrong: ${r.error}`);
  }
  const times: number[] = [];
  for (let k = 0; k < runs; k++) {
    await settle();
    const t0 = performance.now();
    replaceInFile(file, diff);
    times.push(performance.now() - t0);
  }
  return median(times);
}

/**
 * Median wall time of `replaceInFile` for 1, 10 and 50 blocks on files of 1k, 10k, 100k and 1M
 * lines, and for 10 blocks on CR files of 100k and 1M lines (their lines end at each CR).
 */
export async function benchReplaceInFile(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const lines of SIZES) {
    const file = makeFile(lines);
    const runs = runsFor(lines);
    for (const blocks of BLOCK_COUNTS) {
      rows.push({
        name: name(lines, blocks),
        medianMs: await timeReplace(file, makeDiff(lines, blocks), runs),
        runs,
      });
    }
  }
  for (const lines of [100_000, 1_000_000]) {
    const file = makeFile(lines).replaceAll('\n', '\r');
    const runs = runsFor(lines);
    rows.push({
      name: `${name(lines, 10)}, CR file`,
      medianMs: await timeReplace(file, makeDiff(lines, 10), runs),
      runs,
    });
  }
  return rows;
}

/** Median time of a bare pass over the text (counting line breaks): what memory alone costs. */
async function bareScanMs(lines: number): Promise<number> {
  const text = makeFile(lines);
  let sink = 0;
  const times: number[] = [];
  for (let k = 0; k < runsFor(lines) + 3; k++) {
    await settle();
    const t0 = performance.now();
    for (let p = text.indexOf('\n'); p !== -1; p = text.indexOf('\n', p + 1)) sink++;
    times.push(performance.now() - t0);
  }
  return sink > 0 ? median(times.slice(3)) : Number.NaN;
}

/**
 * The targets: 10× the lines costs at most 12× the time (checked 10k → 100k and 100k → 1M), and
 * 50 blocks on 100k lines take under 100 ms.
 */
export function checkTargets(rows: readonly Row[]): string[] {
  const at = (lines: number, blocks: number) =>
    rows.find((r) => r.name === name(lines, blocks))?.medianMs ?? Number.NaN;
  const out: string[] = [];
  for (const [small, big] of [
    [10_000, 100_000],
    [100_000, 1_000_000],
  ] as const) {
    for (const blocks of BLOCK_COUNTS) {
      const ratio = at(big, blocks) / at(small, blocks);
      out.push(
        `${ratio <= 12 ? 'PASS' : 'FAIL'} linear growth, ${blocks} block(s), ` +
          `${small.toLocaleString('en-US')} → ${big.toLocaleString('en-US')} lines: ${ratio.toFixed(2)}× (limit 12×)`,
      );
    }
  }
  const t = at(100_000, 50);
  out.push(`${t < 100 ? 'PASS' : 'FAIL'} 50 blocks on 100,000 lines: ${t.toFixed(2)} ms (limit 100 ms)`);
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await benchReplaceInFile();
  const width = Math.max(...rows.map((r) => r.name.length));
  console.log(`${'case'.padEnd(width)}  ${'median ms'.padStart(10)}  runs`);
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(width)}  ${r.medianMs.toFixed(3).padStart(10)}  ${String(r.runs).padStart(4)}`,
    );
  }
  console.log();
  for (const line of checkTargets(rows)) console.log(line);
  // For reading the 100k → 1M ratio: the same growth for a bare pass over the text shows how much
  // of it comes from the file outgrowing the CPU caches rather than from the algorithm.
  const scan: number[] = [];
  for (const lines of SIZES) scan.push(await bareScanMs(lines));
  console.log();
  console.log(
    `bare scan of the text (median ms): ${SIZES.map((l, k) => `${l.toLocaleString('en-US')}: ${scan[k].toFixed(3)}`).join(', ')}`,
  );
  console.log(
    `bare scan growth: 10,000 → 100,000 lines ${(scan[2] / scan[1]).toFixed(2)}×, ` +
      `100,000 → 1,000,000 lines ${(scan[3] / scan[2]).toFixed(2)}×`,
  );
}
