// Start-up time of the built command: `lathe --version` and `lathe tools`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, printTable } from './stats.js';

const RUNS = 15;
const BIN = fileURLToPath(new URL('../dist/bin/lathe.js', import.meta.url));

function timeCommand(args: string[], cwd: string, env: NodeJS.ProcessEnv): number[] {
  const times: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const start = performance.now();
    const r = spawnSync(process.execPath, [BIN, ...args], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    if (r.status !== 0) throw new Error(`lathe ${args.join(' ')} failed: ${r.stderr}`);
    if (i > 0) times.push(performance.now() - start);
  }
  return times;
}

export async function benchStartup(): Promise<Array<Record<string, string | number>>> {
  if (!existsSync(BIN)) throw new Error('dist/ is missing: run `npm run build` first');
  const cwd = mkdtempSync(join(tmpdir(), 'lathe-bench-start-'));
  const env = { ...process.env, LATHE_HOME: mkdtempSync(join(tmpdir(), 'lathe-bench-home-')) };
  const node = median(
    Array.from({ length: RUNS }, () => {
      const start = performance.now();
      spawnSync(process.execPath, ['-e', '0']);
      return performance.now() - start;
    }),
  );
  const version = median(timeCommand(['--version'], cwd, env));
  const tools = median(timeCommand(['tools'], cwd, env));
  return [
    { command: 'node -e 0 (floor)', 'median ms': node, target: '' },
    {
      command: 'lathe --version',
      'median ms': version,
      target: version < 80 ? 'ok (< 80 ms)' : 'OVER 80 ms',
    },
    { command: 'lathe tools', 'median ms': tools, target: tools < 200 ? 'ok (< 200 ms)' : 'OVER 200 ms' },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printTable(`start-up, medians of ${RUNS}`, await benchStartup());
}
