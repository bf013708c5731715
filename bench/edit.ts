// The edit engines on files of 1,000 to 1,000,000 lines: replace_in_file and apply_patch.
import { benchApplyPatch } from './edit_patch.js';
import { benchReplaceInFile } from './edit_replace.js';
import { type BenchRow, printTable } from './stats.js';

/** Whether 10× the lines costs at most 12× the time, for each block count. */
function linearity(rows: BenchRow[]): Array<Record<string, string | number>> {
  const byName = new Map(rows.map((r) => [r.name, r.medianMs]));
  const out: Array<Record<string, string | number>> = [];
  for (const r of rows) {
    const match = /^(.* )(\d[\d,]*) lines$/.exec(r.name);
    if (!match || r.name.startsWith('baseline')) continue;
    const lines = Number(match[2].replace(/,/g, ''));
    const tenfold = match[2].includes(',') ? (lines * 10).toLocaleString('en-US') : String(lines * 10);
    const bigger = byName.get(`${match[1]}${tenfold} lines`);
    if (bigger === undefined) continue;
    const ratio = bigger / r.medianMs;
    out.push({
      case: `${match[1].replace(/[\s/x]+$/, '')}: ${lines.toLocaleString('en-US')} → ${(lines * 10).toLocaleString('en-US')} lines`,
      'median ms': '',
      runs: '',
      growth: `${ratio.toFixed(1)}×`,
      target: ratio <= 12 ? 'ok (≤ 12×)' : 'OVER 12×',
    });
  }
  return out;
}

export async function benchEdit(): Promise<Array<Record<string, string | number>>> {
  const rows = [...(await benchReplaceInFile()), ...(await benchApplyPatch())];
  const table = rows.map((r) => ({
    case: r.name,
    'median ms': r.medianMs,
    runs: r.runs,
    growth: '',
    target: '',
  }));
  return [...table, ...linearity(rows)];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printTable('edit engines, medians', await benchEdit());
}
