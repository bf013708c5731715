// The `work` scenario of `lathe -p` (five turns of tools, one an edit of a .ts file, then a reply)
// in a TypeScript project (tsconfig.json), with diagnostics after edits on (the default
// settings: typescript-language-server starts once the first request is out, the edit waits for
// it only when warm) and off (`lsp.diagnosticsAfterEdit: false`), run by run in turns.
// LATHE_BENCH_BIN: another build's dist/bin/lathe.js, to compare.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './fake_server_process.js';
import { type RunTimes, SCENARIOS, type Scenario, timeRun } from './headless_timing.js';
import { median, printTable } from './stats.js';

const RUNS = Number(process.env.LATHE_BENCH_RUNS) || 7;
const BIN = process.env.LATHE_BENCH_BIN
  ? resolve(process.env.LATHE_BENCH_BIN)
  : fileURLToPath(new URL('../dist/bin/lathe.js', import.meta.url));

const TSCONFIG = JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ['src'] });

function workIn(name: string, settings?: Record<string, unknown>): Scenario {
  const work = SCENARIOS.find((s) => s.name === 'work');
  if (!work) throw new Error('no work scenario');
  const files: Record<string, string> = { ...work.files, 'tsconfig.json': TSCONFIG };
  if (settings) files['.agents/settings.json'] = JSON.stringify(settings);
  return { ...work, name, files };
}

export async function benchLspWork(): Promise<Array<Record<string, string | number>>> {
  if (!existsSync(BIN)) throw new Error('dist/ is missing: run `npm run build` first');
  const cases = [
    workIn('diagnostics on (default settings)'),
    workIn('diagnostics off', { lsp: { diagnosticsAfterEdit: false } }),
  ];
  const server = await startServer({ traffic: true });
  try {
    const times = new Map<string, RunTimes[]>();
    for (const scenario of cases) await timeRun(BIN, scenario, server);
    for (let i = 0; i < RUNS; i++) {
      for (const scenario of i % 2 ? [...cases].reverse() : cases) {
        times.set(scenario.name, [...(times.get(scenario.name) ?? []), await timeRun(BIN, scenario, server)]);
      }
    }
    return cases.map((scenario) => {
      const runs = times.get(scenario.name) ?? [];
      return {
        case: `work, ${scenario.name}`,
        'run ms': Math.round(median(runs.map((t) => t.totalMs))),
        'first request ms': Math.round(median(runs.map((t) => t.firstRequestMs))),
        'slowest round ms': Math.round(median(runs.map((t) => t.slowestRoundMs))),
        'exit ms': Math.round(median(runs.map((t) => t.exitMs))),
        runs: runs.length,
      };
    });
  } finally {
    server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printTable(`lathe -p work scenario in a TypeScript project, medians of ${RUNS}`, await benchLspWork());
}
