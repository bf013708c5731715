import { describe, expect, it } from 'vitest';
import { JobInfrastructureError } from '../../src/jobs/errors.js';
import { parseJobSpec } from '../../src/jobs/job_spec.js';
import { LocalQueue } from '../../src/jobs/local_queue.js';
import { tempDir } from '../support/runtime_fixtures.js';

const spec = (id: string) => parseJobSpec({ id, repo: '/nowhere', prompt: 'p' }, 'test', '/');

describe('the local queue store', () => {
  it('cancels a waiting job so that no runner ever takes it', async () => {
    const queue = new LocalQueue(tempDir('lathe-home-'));
    await queue.submit([spec('a'), spec('b')]);
    expect(await queue.cancel('a')).toBe('cancelled');
    const taken: string[] = [];
    await queue.work({
      concurrency: 1,
      untilEmpty: true,
      signal: new AbortController().signal,
      execute: async ({ spec }) => {
        taken.push(spec.id);
        return { status: 'completed' };
      },
    });
    expect(taken).toEqual(['b']);
    expect((await queue.get('a'))?.status).toBe('cancelled');
    expect(await queue.cancel('b')).toBe('finished');
    expect(await queue.cancel('c')).toBe('unknown');
  });

  it('queues a cancelled job again when it is submitted again', async () => {
    const queue = new LocalQueue(tempDir('lathe-home-'));
    await queue.submit([spec('a')]);
    await queue.cancel('a');
    expect(await queue.submit([spec('a')])).toEqual({ submitted: ['a'], skipped: [] });
    expect((await queue.get('a'))?.status).toBe('queued');
  });

  it('records an infrastructure failure as failed at its step', async () => {
    const queue = new LocalQueue(tempDir('lathe-home-'));
    await queue.submit([spec('a')]);
    await queue.work({
      concurrency: 1,
      untilEmpty: true,
      signal: new AbortController().signal,
      execute: async () => {
        throw new JobInfrastructureError('clone', 'cannot clone /nowhere: it does not exist');
      },
    });
    expect((await queue.get('a'))?.outcome?.failure).toEqual({
      stage: 'clone',
      message: 'cannot clone /nowhere: it does not exist',
    });
  });
});
