// A 500-round task: lathe's memory and per-round cost as the context fills up and is compacted.
// The fake model server runs in its own process (long_run_server.ts); lathe runs in this one
// through query(), so process.memoryUsage() is lathe's. Each round reads 20 lines of a file; a
// 30,000-token context window makes compaction come round every few dozen rounds. Printed at
// rounds 100 to 500: RSS and heap, and the median wall time of a round over the 100 before.
import { type ChildProcess, fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { query } from '../src/sdk/query.js';
import { tempDir } from '../test/support/runtime_fixtures.js';
import { median, printTable } from './stats.js';

const ROUNDS = Number(process.env.LATHE_BENCH_ROUNDS) || 500;
const EVERY = 100;
type Rows = Array<Record<string, string | number>>;

function startServer(): Promise<{ url: string; child: ChildProcess }> {
  const child = fork(new URL('./long_run_server.ts', import.meta.url), [String(ROUNDS)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve) =>
    child.once('message', (m: { url: string }) => resolve({ url: m.url, child })),
  );
}

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

export async function benchLongRun(): Promise<Rows> {
  const { url, child } = await startServer();
  const cwd = tempDir('lathe-bench-long-');
  const lines = Array.from({ length: 2_000 }, (_, i) => `line ${i + 1}: ${'some notes to read '.repeat(4)}`);
  writeFileSync(join(cwd, 'notes.txt'), `${lines.join('\n')}\n`);
  const rows: Rows = [];
  const roundMs: number[] = [];
  let last = performance.now();
  let compactions = 0;
  try {
    const run = query({
      prompt: 'read notes.txt, 20 lines at a time',
      options: {
        cwd,
        documentsRoot: tempDir('lathe-bench-long-home-'),
        model: 'anthropic/claude-sonnet-4-5',
        baseUrl: url,
        apiKey: 'bench',
        settings: { contextWindow: 30_000 },
        stderr: () => undefined,
      },
    });
    for await (const message of run) {
      if (message.type === 'compaction') compactions++;
      if (message.type === 'result') {
        if (message.num_turns < ROUNDS)
          throw new Error(`the run ended at request ${message.num_turns}: ${message.result}`);
      }
      if (message.type !== 'request_start') continue;
      const now = performance.now();
      if (message.turn > 1) roundMs.push(now - last);
      last = now;
      if (message.turn % EVERY !== 0) continue;
      const memory = process.memoryUsage();
      rows.push({
        round: message.turn,
        'RSS MB': mb(memory.rss),
        'heap MB': mb(memory.heapUsed),
        'median ms a round': Number(median(roundMs.splice(0)).toFixed(1)),
        compactions,
      });
    }
  } finally {
    child.send({ close: true });
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printTable(`${ROUNDS} rounds: memory and per-round cost`, await benchLongRun());
}
