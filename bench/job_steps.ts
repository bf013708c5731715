// lathe jobs: the executor's own share of a job, step by step: the mirror fetched, the worktree
// added, the `lathe -p` process (its wall time less the run's own duration_ms: start-up and
// exit), the output (stage, commit, branch) and the worktree removed. Work jobs of the fake
// model (write a file, answer) on one repository, LATHE_BENCH_STEP_JOBS (default 24) at each
// concurrency of LATHE_BENCH_STEP_CONCURRENCY (default 1,4), in this process as a worker runs them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bareSetup, jobExecutor } from '../src/jobs/executor.js';
import { parseJobSpec } from '../src/jobs/job_spec.js';
import { jobFilesDir } from '../src/jobs/paths.js';
import type { JobContext } from '../src/jobs/types.js';
import { fakeModelEnv } from '../test/support/headless_run.js';
import { jobRepo, workServer } from '../test/support/job_fixtures.js';
import { tempDir } from '../test/support/runtime_fixtures.js';
import { median, printTable } from './stats.js';

const JOBS = Number(process.env.LATHE_BENCH_STEP_JOBS) || 24;
const CONCURRENCY = (process.env.LATHE_BENCH_STEP_CONCURRENCY ?? '1,4').split(',').map(Number);
const BIN = fileURLToPath(new URL('../dist/bin/lathe.js', import.meta.url));
const STEPS = ['mirror', 'worktree', 'lathe -p process', 'output', 'removal', 'share'] as const;

type Step = (typeof STEPS)[number];
type Rows = Array<Record<string, string | number>>;

/** The run's own wall time, from the result line of its stream-json output. */
function runDurationMs(filesDir: string): number {
  const lines = readFileSync(join(filesDir, 'run.jsonl'), 'utf8').trim().split('\n');
  const result = JSON.parse(lines.at(-1) ?? '{}') as { type?: string; duration_ms?: number };
  if (result.type !== 'result') throw new Error(`the run wrote no result: ${lines.at(-1)}`);
  return result.duration_ms ?? 0;
}

/** One job through the executor, timed at each stage it enters. */
async function timedJob(
  execute: ReturnType<typeof jobExecutor>,
  repo: string,
  home: string,
  id: string,
  submittedAt: string,
) {
  const marks = new Map<string, number>();
  const context: JobContext = {
    spec: parseJobSpec(
      { id, repo, prompt: `[job ${id}]`, model: 'anthropic/claude-sonnet-4-5' },
      'bench',
      '/',
    ),
    signal: new AbortController().signal,
    worker: 'bench',
    submittedAt,
    log: (line) => {
      if (line.startsWith('ended')) marks.set('ended', performance.now());
    },
    stage: (name) => marks.set(name, performance.now()),
  };
  const begun = performance.now();
  const outcome = await execute(context);
  const done = performance.now();
  if (outcome.status !== 'completed') throw new Error(`job ${id}: ${outcome.status} ${outcome.text ?? ''}`);
  const at = (name: string) => marks.get(name) ?? Number.NaN;
  const agentMs = runDurationMs(jobFilesDir(home, id));
  const steps: Record<Step, number> = {
    mirror: at('worktree') - at('mirror'),
    worktree: at('run') - at('worktree'),
    'lathe -p process': at('output') - at('run') - agentMs,
    output: at('ended') - at('output'),
    removal: done - at('ended'),
    share: done - begun - agentMs,
  };
  return { steps, agentMs };
}

async function stepsAt(concurrency: number): Promise<Rows> {
  const server = await workServer();
  const home = tempDir('lathe-bench-steps-');
  const repo = jobRepo();
  const execute = jobExecutor({
    documentsRoot: home,
    latheBin: BIN,
    sandbox: 'off',
    runSetup: bareSetup,
    env: { ...process.env, ...fakeModelEnv(server, home) },
  });
  // The batch is submitted at once; a first job clones the mirror, and every later one finds it
  // fetched since.
  const submittedAt = new Date().toISOString();
  await timedJob(execute, repo, home, `warm-${concurrency}`, submittedAt);
  const taken: Array<Record<Step, number>> = [];
  const agent: number[] = [];
  let next = 0;
  const lane = async () => {
    while (next < JOBS) {
      const timed = await timedJob(execute, repo, home, `s${concurrency}-${next++}`, submittedAt);
      taken.push(timed.steps);
      agent.push(timed.agentMs);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  await server.close();
  return [
    ...STEPS.map((step) => ({
      concurrency,
      step: step === 'share' ? "executor's share (the job less the run's own time)" : step,
      'median ms': median(taken.map((t) => t[step])),
    })),
    { concurrency, step: "(the run's own time, duration_ms)", 'median ms': median(agent) },
  ];
}

export async function benchJobSteps(): Promise<Rows> {
  const rows: Rows = [];
  for (const concurrency of CONCURRENCY) rows.push(...(await stepsAt(concurrency)));
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printTable(`jobs: the executor's share per step, ${JOBS} jobs at each concurrency`, await benchJobSteps());
}
