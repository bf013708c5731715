import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { BullQueue } from '../../src/jobs/bullmq_queue.js';
import { FakeModelServer } from '../support/fake_model_server.js';
import { jobNameOf, workTurn } from '../support/job_fixtures.js';
import { eventually } from '../support/processes.js';
import { type RedisServer, startRedis } from '../support/redis_server.js';
import { needs } from '../support/required_programs.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { branchFiles, type JobWorld, makeWorld } from './queue_behaviour.js';

const MODEL = ['--model', 'anthropic/claude-sonnet-4-5'];

needs('redis-server', 'bwrap')('BullMQ retries of a lathe worker, one real Redis', () => {
  let redis: RedisServer;
  let world: JobWorld;
  let queue: BullQueue;
  let stopWorker: (() => Promise<unknown>) | undefined;

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });
  afterEach(async () => {
    await stopWorker?.();
    await queue?.close();
    await world?.server.close();
    const client = new Redis(redis.url);
    await client.flushdb();
    client.disconnect();
  });

  /** A `lathe worker` process of concurrency 1; stopping it sends SIGTERM and waits for its end. */
  function startWorker(): void {
    let kill: (() => void) | undefined;
    const done = world.jobs(['worker', '--concurrency', '1'], {
      onSpawn: (child) => (kill = () => child.kill('SIGTERM')),
    });
    stopWorker = () => {
      kill?.();
      return done;
    };
    queue = new BullQueue(new Redis(redis.url, { maxRetriesPerRequest: null }));
  }

  it('tries a job whose clone failed again after its backoff, and runs it once the clone works', async () => {
    world = await makeWorld(['--queue', redis.url]);
    // The repository is not there yet: the first clone fails.
    const later = join(tempDir('lathe-later-'), 'repo');
    await world.jobs([
      'jobs',
      'submit',
      '--repo',
      later,
      '--prompt',
      '[job later]',
      '--id',
      'later',
      ...MODEL,
    ]);
    startWorker();
    const failedTry = await eventually(
      async () => (await queue.logs('later')).find((line) => line.startsWith('try ')),
      60_000,
    );
    expect(failedTry).toMatch(
      new RegExp(`^try 1 of 3 failed at clone: cannot clone ${later}: .*; tried again in 2 s$`),
    );
    // Waiting out its backoff, or already on its next try: not failed.
    expect(['queued', 'running']).toContain((await queue.get('later'))?.status);
    expect(world.requestsOf('later')).toBe(0);
    cpSync(world.repo, later, { recursive: true });
    const job = await eventually(async () => {
      const view = await queue.get('later');
      return view?.status === 'completed' ? view : undefined;
    }, 60_000);
    expect(job.attempts).toBeGreaterThanOrEqual(2);
    // The run itself ran once: the work scenario's two model requests.
    expect(world.requestsOf('later')).toBe(2);
    const output = job.outcome?.output as { kind: string; repository: string; branch: string };
    expect(branchFiles(output.repository, output.branch)).toEqual(['later.txt']);
  }, 120_000);

  it('does not try again a job whose run failed: it ends failed(run) after one try', async () => {
    world = await makeWorld(['--queue', redis.url]);
    await world.server.close();
    const work = workTurn();
    world.server = await FakeModelServer.start({
      fallback: {
        respond: (request) =>
          jobNameOf(request) === 'refused'
            ? { error: { status: 400, message: 'this request is not valid' } }
            : (work as { respond: (r: typeof request) => never }).respond(request),
      },
    });
    world.env.ANTHROPIC_BASE_URL = world.server.url;
    const submit = (id: string) =>
      world.jobs(['jobs', 'submit', '--repo', world.repo, '--prompt', `[job ${id}]`, '--id', id, ...MODEL]);
    await submit('refused');
    await submit('fine');
    startWorker();
    // With one job at a time, the second job ends after the first.
    await eventually(async () => (await queue.get('fine'))?.status === 'completed', 90_000);
    const job = await queue.get('refused');
    expect(job).toMatchObject({ status: 'failed', attempts: 1, outcome: { failure: { stage: 'run' } } });
    expect(job?.outcome?.failure?.message).toMatch(/not valid/);
    expect(await queue.logs('refused')).not.toContainEqual(expect.stringMatching(/^try \d/));
    // BullMQ holds it as finished with an outcome: no retry is scheduled for it.
    const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
    const bull = new Queue('lathe-jobs', { connection, prefix: 'lathe' });
    try {
      expect(await bull.getJobState('refused')).toBe('completed');
      expect(await bull.getJobs(['delayed', 'wait', 'prioritized'])).toEqual([]);
    } finally {
      await bull.close();
      connection.disconnect();
    }
  }, 120_000);
});
