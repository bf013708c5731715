/** Small helpers every benchmark shares: timing and medians. */
export interface BenchRow {
  name: string;
  medianMs: number;
  runs: number;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export async function timeRuns(
  runs: number,
  fn: () => Promise<unknown> | unknown,
  warmup = 1,
): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return times;
}

export function printTable(title: string, rows: Array<Record<string, string | number>>): void {
  if (rows.length === 0) return;
  const keys = Object.keys(rows[0]);
  const cell = (v: string | number) =>
    typeof v !== 'number' ? v : Number.isInteger(v) ? v.toLocaleString('en-US') : v.toFixed(v < 10 ? 2 : 1);
  const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => String(cell(r[k])).length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i])).join('  ');
  console.log(`\n## ${title}\n`);
  console.log(line(keys));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const r of rows) console.log(line(keys.map((k) => String(cell(r[k])))));
}
