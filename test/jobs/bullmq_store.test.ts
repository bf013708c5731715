import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { BullQueue } from '../../src/jobs/bullmq_queue.js';
import { JobInfrastructureError } from '../../src/jobs/errors.js';
import { parseJobSpec } from '../../src/jobs/job_spec.js';
import type { JobExecutor } from '../../src/jobs/types.js';
import { eventually } from '../support/processes.js';
import { type RedisServer, startRedis } from '../support/redis_server.js';
import { needs } from '../support/required_programs.js';

const spec = (id: string) => parseJobSpec({ id, repo: '/nowhere', prompt: 'p' }, 'test', '/');

/**
 * The BullMQ queue in this process against a real redis-server, with executors that stand in
 * for the job's run: what the queue does with a cancellation, a failure of the machinery and a
 * run that failed.
 */
needs('redis-server')('the BullMQ queue with a real Redis', () => {
  let redis: RedisServer;
  let queue: BullQueue;
  /** BullMQ's own view of the queue, to see which of its lists a job is in. */
  let bull: Queue;
  let bullConnection: Redis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });
  beforeEach(async () => {
    const client = new Redis(redis.url, { maxRetriesPerRequest: null });
    await client.flushdb();
    queue = new BullQueue(client);
    bullConnection = new Redis(redis.url, { maxRetriesPerRequest: null });
    bull = new Queue('lathe-jobs', {
      connection: bullConnection,
      prefix: 'lathe',
    });
  });
  afterEach(async () => {
    await queue.close();
    await bull.close();
    bullConnection.disconnect();
  });

  /** Runs the queue's jobs with `execute` until none is waiting or running; returns the ids it ran, in order. */
  async function runAll(execute: JobExecutor): Promise<string[]> {
    const ran: string[] = [];
    await queue.work({
      concurrency: 1,
      untilEmpty: true,
      signal: new AbortController().signal,
      execute: async (context) => {
        ran.push(context.spec.id);
        return execute(context);
      },
    });
    return ran;
  }

  const waitingIds = async () =>
    (await bull.getJobs(['wait', 'prioritized', 'delayed', 'waiting-children'])).map((j) => j.id).sort();

  it('takes a cancelled waiting job out of BullMQ at once, so no worker ever takes it', async () => {
    await queue.submit([spec('a'), spec('b')]);
    expect(await waitingIds()).toEqual(['a', 'b']);
    expect(await queue.cancel('a')).toBe('cancelled');
    expect(await waitingIds()).toEqual(['b']);
    expect(await queue.get('a')).toMatchObject({
      status: 'cancelled',
      attempts: 0,
      outcome: { status: 'cancelled' },
    });
    expect((await queue.list()).map((v) => [v.id, v.status])).toEqual([
      ['a', 'cancelled'],
      ['b', 'queued'],
    ]);
    expect(await runAll(async () => ({ status: 'completed' }))).toEqual(['b']);
    expect(await queue.cancel('a')).toBe('cancelled');
    expect(await queue.cancel('b')).toBe('finished');
    expect(await queue.cancel('c')).toBe('unknown');
  });

  it('queues a job cancelled while waiting again when it is submitted again, and runs it', async () => {
    await queue.submit([spec('a')]);
    await queue.cancel('a');
    expect(await queue.submit([spec('a')])).toEqual({ submitted: ['a'], skipped: [] });
    expect((await queue.get('a'))?.status).toBe('queued');
    expect(await runAll(async () => ({ status: 'completed' }))).toEqual(['a']);
    expect((await queue.list()).map((v) => [v.id, v.status])).toEqual([['a', 'completed']]);
  });

  it('tries a job again after a failure of the machinery, with a log line for the failed try', async () => {
    await queue.submit([spec('flaky')]);
    let tries = 0;
    const ran = await runAll(async () => {
      if (++tries === 1) throw new JobInfrastructureError('clone', 'cannot clone /nowhere: timed out');
      return { status: 'completed' };
    });
    expect(ran).toEqual(['flaky', 'flaky']);
    expect(await queue.get('flaky')).toMatchObject({ status: 'completed', attempts: 2 });
    expect(await queue.logs('flaky')).toEqual([
      'try 1 of 3 failed at clone: cannot clone /nowhere: timed out; tried again in 2 s',
    ]);
  });

  it('waits out the backoff between tries: a job that failed at its machinery is delayed, not run at once', async () => {
    await queue.submit([spec('later')]);
    const stop = new AbortController();
    let tries = 0;
    const working = queue.work({
      concurrency: 1,
      signal: stop.signal,
      execute: async () => {
        tries++;
        throw new JobInfrastructureError('worktree', 'cannot make a worktree: disk full');
      },
    });
    try {
      await eventually(async () => (await bull.getJobs(['delayed'])).some((j) => j.id === 'later'));
      const delayed = await bull.getJob('later');
      expect(delayed?.opts.backoff).toEqual({ type: 'exponential', delay: 2_000 });
      expect(delayed?.attemptsMade).toBe(1);
      expect(tries).toBe(1);
      // A job waiting out its backoff is still waiting: cancelling takes it out and keeps its log.
      expect(await queue.cancel('later')).toBe('cancelled');
      expect(await waitingIds()).toEqual([]);
      expect(await queue.get('later')).toMatchObject({ status: 'cancelled', attempts: 1 });
      expect(await queue.logs('later')).toEqual([
        'try 1 of 3 failed at worktree: cannot make a worktree: disk full; tried again in 2 s',
      ]);
    } finally {
      stop.abort();
      await working;
    }
  });

  it('gives up after three failed tries and records the failure at its step', async () => {
    await queue.submit([spec('broken')]);
    const ran = await runAll(async () => {
      throw new JobInfrastructureError('clone', 'cannot clone /nowhere: it does not exist');
    });
    expect(ran).toEqual(['broken', 'broken', 'broken']);
    expect(await queue.get('broken')).toMatchObject({
      status: 'failed',
      attempts: 3,
      outcome: { failure: { stage: 'clone', message: 'cannot clone /nowhere: it does not exist' } },
    });
    expect((await queue.logs('broken')).at(-1)).toBe(
      'try 3 of 3 failed at clone: cannot clone /nowhere: it does not exist; no tries left',
    );
  });

  it('does not try again a job that ran and failed, nor one whose executor failed otherwise', async () => {
    await queue.submit([spec('ranbad'), spec('threw')]);
    const ran = await runAll(async ({ spec }) => {
      if (spec.id === 'threw') throw new Error('lathe exited with code 1');
      return { status: 'failed', failure: { stage: 'run', message: 'the model refused' } };
    });
    expect(ran.sort()).toEqual(['ranbad', 'threw']);
    expect(await queue.get('ranbad')).toMatchObject({ status: 'failed', attempts: 1 });
    expect(await queue.get('threw')).toMatchObject({
      status: 'failed',
      attempts: 1,
      outcome: { failure: { stage: 'run', message: 'lathe exited with code 1' } },
    });
  });
});
