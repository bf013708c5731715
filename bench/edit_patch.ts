import { performance } from 'node:perf_hooks';
import { parsePatch, planPatch } from '../src/edit/apply_patch/index.js';

/**
 * apply_patch planning cost for 1, 10 and 50 changes on files of 1k, 100k and 1M lines.
 * Planning must be linear in the file size: ten times the lines may cost at most ~12x the time.
 */

const LINE_COUNTS = [1_000, 100_000, 1_000_000];
const CHUNK_COUNTS = [1, 10, 50];
const CONTEXT = 3;

export interface BenchResult {
  name: string;
  medianMs: number;
  runs: number;
}

function makeFile(lineCount: number): string {
  const lines: string[] = [];
  for (let i = 0; i < lineCount; i++) lines.push(`  const value${i} = compute(${i}, "line ${i}");`);
  return `${lines.join('\n')}\n`;
}

/** Evenly spaced changes, each replacing one line inside three lines of context on both sides. */
function makePatch(lineCount: number, chunkCount: number): string {
  const out = ['*** Begin Patch', '*** Update File: bench.ts'];
  const spacing = Math.floor(lineCount / (chunkCount + 1));
  for (let chunk = 1; chunk <= chunkCount; chunk++) {
    const target = chunk * spacing;
    out.push('@@');
    for (let i = target - CONTEXT; i < target; i++)
      out.push(`   const value${i} = compute(${i}, "line ${i}");`);
    out.push(`-  const value${target} = compute(${target}, "line ${target}");`);
    out.push(`+  const value${target} = computeFaster(${target});`);
    for (let i = target + 1; i <= target + CONTEXT; i++)
      out.push(`   const value${i} = compute(${i}, "line ${i}");`);
  }
  out.push('*** End Patch');
  return out.join('\n');
}

function runsFor(lineCount: number): number {
  if (lineCount <= 1_000) return 50;
  return lineCount <= 100_000 ? 21 : 9;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function planOnce(patchText: string, files: ReadonlyMap<string, string>): void {
  const parsed = parsePatch(patchText);
  if (!parsed.ok) throw new Error(parsed.error);
  const plan = planPatch(parsed.ops, files);
  if (!plan.ok) throw new Error(plan.error);
}

function measure(runs: number, work: () => void): number {
  work(); // warm-up
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    work();
    times.push(performance.now() - started);
  }
  return median(times);
}

const planName = (chunks: number, lines: number) => `apply_patch plan ${chunks} chunks x ${lines} lines`;
const baselineName = (lines: number) => `baseline: utf-8 encode of ${lines} lines`;

/**
 * Medians per configuration, plus a baseline per file size: one UTF-8 encode of the file, the
 * cheapest linear pass there is. It shows how this machine's caches alone scale from a file
 * that fits in them (100k lines, 5 MB) to one that does not (1M lines, 53 MB).
 */
export async function benchApplyPatch(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const lineCount of LINE_COUNTS) {
    const text = makeFile(lineCount);
    const files = new Map([['bench.ts', text]]);
    const runs = runsFor(lineCount);
    for (const chunkCount of CHUNK_COUNTS) {
      const patchText = makePatch(lineCount, chunkCount);
      results.push({
        name: planName(chunkCount, lineCount),
        medianMs: measure(runs, () => planOnce(patchText, files)),
        runs,
      });
    }
    results.push({
      name: baselineName(lineCount),
      medianMs: measure(runs, () => Buffer.from(text, 'utf8')),
      runs,
    });
  }
  return results;
}

function printReport(results: readonly BenchResult[]): void {
  for (const result of results) {
    console.log(
      `${result.name.padEnd(48)} ${result.medianMs.toFixed(2).padStart(10)} ms  (median of ${result.runs})`,
    );
  }
  const find = (name: string) => results.find((r) => r.name === name)?.medianMs ?? Number.NaN;
  for (const chunks of CHUNK_COUNTS) {
    const ratio = find(planName(chunks, 1_000_000)) / find(planName(chunks, 100_000));
    const verdict = ratio <= 12 ? 'yes' : 'NO';
    console.log(
      `${chunks} chunks: 10x lines (100k -> 1M) costs ${ratio.toFixed(1)}x time; <= 12x: ${verdict}`,
    );
  }
  const baseline = find(baselineName(1_000_000)) / find(baselineName(100_000));
  console.log(
    `baseline: 10x lines (100k -> 1M) costs ${baseline.toFixed(1)}x time for one encode of the file`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printReport(await benchApplyPatch());
}
