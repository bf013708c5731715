// lathe jobs: what the queue itself costs per job, and the throughput of real jobs.
//   overhead   — submit → the executor starts, and the executor's end → the outcome recorded, with
//                a worker already waiting and an executor that does nothing; local queue and BullMQ
//                on a real redis-server (median of LATHE_BENCH_RUNS, default 20).
//   throughput — LATHE_BENCH_JOBS (default 200) jobs of the `work` scenario (write a file, answer)
//                against the fake model server, run by `lathe jobs run --concurrency C` for each C
//                of LATHE_BENCH_CONCURRENCY (default 2,4,8): jobs per minute, and the peak RSS of
//                the worker process alone and of the worker with its runs, and the CPU time of the
//                worker with its runs.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { BullQueue } from '../src/jobs/bullmq_queue.js';
import { parseJobSpec } from '../src/jobs/job_spec.js';
import { LocalQueue } from '../src/jobs/local_queue.js';
import type { JobOutcome, JobQueue } from '../src/jobs/types.js';
import { fakeModelEnv } from '../test/support/headless_run.js';
import { jobRepo, workServer } from '../test/support/job_fixtures.js';
import { processesCarrying, uniqueToken } from '../test/support/processes.js';
import { startRedis } from '../test/support/redis_server.js';
import { tempDir } from '../test/support/runtime_fixtures.js';
import { median, printTable } from './stats.js';

const RUNS = Number(process.env.LATHE_BENCH_RUNS) || 20;
const JOBS = Number(process.env.LATHE_BENCH_JOBS) || 200;
const CONCURRENCY = (process.env.LATHE_BENCH_CONCURRENCY ?? '2,4,8').split(',').map(Number);
const BIN = fileURLToPath(new URL('../dist/bin/lathe.js', import.meta.url));

type Rows = Array<Record<string, string | number>>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Submit → start and end → recorded of RUNS jobs, one at a time, on a queue a worker already waits on. */
async function overhead(queue: JobQueue, label: string): Promise<Rows> {
  const toStart: number[] = [];
  const toRecord: number[] = [];
  let started: (() => void) | undefined;
  let ended = 0;
  const stop = new AbortController();
  const working = queue.work({
    concurrency: 1,
    signal: stop.signal,
    execute: async () => {
      started?.();
      ended = performance.now();
      return { status: 'completed', finishedAt: new Date().toISOString() } as JobOutcome;
    },
  });
  for (let i = 0; i < RUNS + 1; i++) {
    const spec = parseJobSpec({ id: `o${i}-${Date.now()}`, repo: '/nowhere', prompt: 'p' }, 'bench', '/');
    const begun = new Promise<void>((resolve) => {
      started = resolve;
    });
    const submitted = performance.now();
    await queue.submit([spec]);
    await begun;
    const start = performance.now();
    while ((await queue.get(spec.id))?.status !== 'completed') await sleep(1);
    const recorded = performance.now();
    if (i === 0) continue; // warm-up
    toStart.push(start - submitted);
    toRecord.push(recorded - ended);
  }
  stop.abort();
  await working;
  return [
    { case: `${label}: submit → start`, 'median ms': median(toStart).toFixed(1), runs: RUNS },
    { case: `${label}: end → recorded`, 'median ms': median(toRecord).toFixed(1), runs: RUNS },
  ];
}

function rssKb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** CPU seconds (user + system) of a process and of its children it has waited for, from /proc. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime, stime, cutime, cstime are fields 14-17 of stat; fields[0] here is field 3.
    const ticks = fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0);
    return ticks / 100;
  } catch {
    return 0;
  }
}

/** JOBS work jobs run by `lathe jobs run --concurrency C` on the local queue. */
async function throughput(concurrency: number): Promise<Record<string, string | number>> {
  const server = await workServer();
  const home = tempDir('lathe-bench-jobs-');
  const repo = jobRepo();
  const env = { ...process.env, ...fakeModelEnv(server, home) };
  const file = join(home, 'batch.jsonl');
  writeFileSync(
    file,
    Array.from({ length: JOBS }, (_, i) =>
      JSON.stringify({ id: `b${i}`, repo, prompt: `[job b${i}]`, model: 'anthropic/claude-sonnet-4-5' }),
    ).join('\n'),
  );
  await run(['jobs', 'submit', file], env);
  const token = uniqueToken('bench-jobs');
  let workerPeak = 0;
  let treePeak = 0;
  let cpu = 0;
  const began = performance.now();
  const worker = spawn(process.execPath, [BIN, 'jobs', 'run', '--concurrency', String(concurrency)], {
    env: { ...env, LATHE_BENCH_TOKEN: token },
    stdio: 'ignore',
  });
  const sampler = setInterval(() => {
    if (worker.pid) {
      workerPeak = Math.max(workerPeak, rssKb(worker.pid));
      // The last reading before the worker ends: its runs are its children, waited for.
      cpu = Math.max(cpu, cpuSeconds(worker.pid));
    }
    treePeak = Math.max(
      treePeak,
      processesCarrying(token).reduce((sum, pid) => sum + rssKb(pid), 0),
    );
  }, 250);
  await new Promise((resolve) => worker.on('close', resolve));
  clearInterval(sampler);
  const minutes = (performance.now() - began) / 60_000;
  const queue = new LocalQueue(home);
  const completed = (await queue.list()).filter((v) => v.status === 'completed').length;
  await server.close();
  return {
    concurrency,
    jobs: `${completed}/${JOBS} completed`,
    'jobs/min': (completed / minutes).toFixed(1),
    'worker peak RSS MB': (workerPeak / 1024).toFixed(0),
    'worker + runs peak RSS MB': (treePeak / 1024).toFixed(0),
    'CPU s (user+sys)': cpu.toFixed(0),
    'CPU s per job': (cpu / Math.max(1, completed)).toFixed(2),
    minutes: minutes.toFixed(1),
  };
}

function run(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: 'ignore' });
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`lathe ${args.join(' ')}: exit ${code}`)),
    );
  });
}

export async function benchJobsOverhead(): Promise<Rows> {
  const rows = await overhead(new LocalQueue(tempDir('lathe-bench-queue-')), 'local');
  const redis = await startRedis();
  try {
    const queue = new BullQueue(new Redis(redis.url, { maxRetriesPerRequest: null }));
    rows.push(...(await overhead(queue, 'BullMQ')));
    await queue.close();
  } finally {
    await redis.stop();
  }
  return rows;
}

export async function benchJobsThroughput(): Promise<Rows> {
  const rows: Rows = [];
  for (const concurrency of CONCURRENCY) rows.push(await throughput(concurrency));
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printTable('jobs: queue overhead per job', await benchJobsOverhead());
  printTable(`jobs: ${JOBS} work jobs on this machine (local queue)`, await benchJobsThroughput());
}
