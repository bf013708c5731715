import { type ChildProcess, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { BullQueue } from '../../src/jobs/bullmq_queue.js';
import { FakeModelServer, type ScriptedTurn } from '../support/fake_model_server.js';
import { jobNameOf, workTurn } from '../support/job_fixtures.js';
import { eventually, processesCarrying, uniqueToken } from '../support/processes.js';
import { type RedisServer, startRedis } from '../support/redis_server.js';
import { needs } from '../support/required_programs.js';
import { branchFiles, type JobWorld, makeWorld } from './queue_behaviour.js';

/** The jobs of `lathe jobs list --json`, by id. */
async function listed(world: JobWorld): Promise<Map<string, Record<string, unknown>>> {
  const result = await world.jobs(['jobs', 'list', '--json']);
  return new Map(
    (JSON.parse(result.stdout) as Array<Record<string, unknown>>).map((row) => [row.id as string, row]),
  );
}

/** The most intervals that overlap at any instant. */
function mostAtOnce(intervals: Array<[number, number]>): number {
  const edges = intervals.flatMap(([start, end]) => [
    [start, 1],
    [end, -1],
  ]);
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let most = 0;
  for (const [, step] of edges) {
    now += step;
    most = Math.max(most, now);
  }
  return most;
}

needs('redis-server', 'bwrap')('BullMQ workers in separate processes, one real Redis', () => {
  let redis: RedisServer;
  let world: JobWorld;
  const workers: ChildProcess[] = [];
  const startWorker = (concurrency: number, env: Record<string, string> = {}): ChildProcess => {
    let child: ChildProcess | undefined;
    void world.jobs(['worker', '--concurrency', String(concurrency)], { env, onSpawn: (c) => (child = c) });
    if (!child) throw new Error('the worker did not start');
    workers.push(child);
    return child;
  };

  /** Resolves once a worker says it takes jobs. */
  const untilReady = (worker: ChildProcess): Promise<void> =>
    new Promise((resolve, reject) => {
      let said = '';
      worker.stderr?.on('data', (chunk: Buffer | string) => {
        said += String(chunk);
        if (/is taking jobs/.test(said)) resolve();
      });
      worker.once('exit', (code) =>
        reject(new Error(`the worker exited (${code}) before taking jobs: ${said}`)),
      );
    });

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });
  afterEach(async () => {
    for (const worker of workers.splice(0)) worker.kill('SIGKILL');
    await world?.server.close();
    const client = new Redis(redis.url);
    await client.flushdb();
    client.disconnect();
  });

  it('runs 20 jobs on 2 workers of concurrency 4: each once, one branch each, at most 8 at once', async () => {
    world = await makeWorld(['--queue', redis.url], { slowMs: 100 });
    const names = Array.from({ length: 20 }, (_, i) => `w${i + 1}`);
    const file = join(world.home, 'batch.jsonl');
    writeFileSync(
      file,
      names
        .map((n) =>
          JSON.stringify({
            id: n,
            repo: world.repo,
            prompt: `[job ${n}]`,
            model: 'anthropic/claude-sonnet-4-5',
          }),
        )
        .join('\n'),
    );
    expect((await world.jobs(['jobs', 'submit', file])).code).toBe(0);
    startWorker(4);
    startWorker(4);
    await eventually(async () => {
      const jobs = await listed(world);
      return names.every((n) => jobs.get(n)?.status === 'completed');
    }, 240_000);
    const jobs = await listed(world);
    for (const name of names) expect(world.requestsOf(name)).toBe(2);
    const mirror = readdirSync(join(world.home, 'jobs', 'mirrors')).find((n) => n.endsWith('.git')) as string;
    const branches = execFileSync('git', ['branch', '--list', 'lathe/*', '--format=%(refname:short)'], {
      cwd: join(world.home, 'jobs', 'mirrors', mirror),
      encoding: 'utf8',
    })
      .trim()
      .split('\n')
      .sort();
    expect(branches).toEqual(names.map((n) => `lathe/job-${n}`).sort());
    // Each branch holds its own job's file alone: no two jobs shared a worktree.
    for (const name of names)
      expect(branchFiles(join(world.home, 'jobs', 'mirrors', mirror), `lathe/job-${name}`)).toEqual([
        `${name}.txt`,
      ]);
    const intervals = names.map((n) => {
      const row = jobs.get(n) as { started_at: string; finished_at: string };
      return [Date.parse(row.started_at), Date.parse(row.finished_at)] as [number, number];
    });
    expect(mostAtOnce(intervals)).toBeLessThanOrEqual(8);
    expect(mostAtOnce(intervals)).toBeGreaterThan(4);
    expect(new Set(names.map((n) => jobs.get(n)?.worker)).size).toBe(2);
  }, 300_000);

  it('moves the job of a worker killed with SIGKILL to the other worker, counts both tries and their spend', async () => {
    const LOCK_SECONDS = 3;
    // The first try's first request is answered (its usage reported); its second never is, so
    // the try is still running when its worker is killed. The second try runs the work through.
    let served = 0;
    const turn: ScriptedTurn = {
      respond: (request) => {
        const n = served++;
        if (n === 1) return { hang: true };
        const reply = (workTurn() as { respond: (r: typeof request) => ScriptedTurn }).respond(request);
        const usage =
          n === 0 ? { inputTokens: 1_000, outputTokens: 100 } : { inputTokens: 2_000, outputTokens: 200 };
        return { ...(reply as object), usage };
      },
    };
    world = await makeWorld(['--queue', redis.url]);
    await world.server.close();
    world.server = await FakeModelServer.start({ fallback: turn });
    world.env.ANTHROPIC_BASE_URL = world.server.url;
    mkdirSync(join(world.home, 'settings'), { recursive: true });
    writeFileSync(
      join(world.home, 'settings', 'settings.json'),
      JSON.stringify({ jobs: { lockSeconds: LOCK_SECONDS } }),
    );
    await world.jobs([
      'jobs',
      'submit',
      '--repo',
      world.repo,
      '--prompt',
      '[job k1]',
      '--id',
      'k1',
      '--model',
      'anthropic/claude-sonnet-4-5',
    ]);
    const token = uniqueToken('killed-worker');
    const first = startWorker(1, { LATHE_TEST_TOKEN: token });
    await world.server.untilModelRequests(2);
    const deadWorktrees = readdirSync(join(world.home, 'jobs', 'worktrees')).filter(
      (n) => !n.endsWith('.json'),
    );
    expect(deadWorktrees).toHaveLength(1);
    // The other worker is up and waiting before the first dies, so the move is the queue's
    // stalled-job recovery alone.
    await untilReady(startWorker(1));
    first.kill('SIGKILL');
    const queue = new BullQueue(new Redis(redis.url, { maxRetriesPerRequest: null }));
    try {
      await eventually(async () => (await queue.get('k1'))?.status === 'completed', 60_000);
      const done = await queue.get('k1');
      expect(done?.attempts).toBe(2);
      // The dead try's request is counted with the second try's two.
      expect(done?.outcome?.usage).toEqual({ inputTokens: 5_000, outputTokens: 500 });
      expect(done?.outcome?.tries).toMatchObject([
        { attempt: 1, ended: 'lost', usage: { inputTokens: 1_000, outputTokens: 100 }, turns: 1 },
        { attempt: 2, ended: 'completed', usage: { inputTokens: 4_000, outputTokens: 400 } },
      ]);
      expect(done?.outcome?.tries?.[0].worker).toMatch(new RegExp(`:${first.pid}$`));
    } finally {
      await queue.close();
    }
    const job = (await listed(world)).get('k1') as { worker: string };
    expect(job.worker).not.toMatch(new RegExp(`:${first.pid}$`));
    expect(existsSync(join(world.home, 'jobs', 'worktrees', deadWorktrees[0]))).toBe(false);
    // The dead worker's run was ended with its worktree: no process of it is left.
    expect(processesCarrying(token)).toEqual([]);
    expect(jobNameOf(world.server.requests.at(-1) as never)).toBe('k1');
  }, 120_000);
});
