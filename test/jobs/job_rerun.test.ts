import { rmSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { localQueueDir } from '../../src/jobs/paths.js';
import { needs } from '../support/required_programs.js';
import { branchFiles, type JobWorld, makeWorld, shown } from './queue_behaviour.js';

const MODEL = ['--model', 'anthropic/claude-sonnet-4-5'];

needs('bwrap')('lathe jobs: a job whose output branch is in the mirror already', () => {
  let world: JobWorld;
  afterEach(async () => {
    await world?.server.close();
  });

  it('is reported done when a queue that forgot it runs it again, and runs again with --rerun', async () => {
    world = await makeWorld([]);
    const submit = (...extra: string[]) =>
      world.jobs([
        'jobs',
        'submit',
        '--repo',
        world.repo,
        '--prompt',
        '[job same]',
        '--id',
        'same',
        ...extra,
        ...MODEL,
      ]);
    await submit();
    await world.jobs(['jobs', 'run']);
    const first = await shown(world, 'same');
    expect(first.status).toBe('completed');
    const requests = world.requestsOf('same');
    expect(requests).toBe(2);

    // The queue forgets every job (a Redis without persistence, restarted); the mirror stays.
    rmSync(localQueueDir(world.home), { recursive: true, force: true });
    await submit();
    await world.jobs(['jobs', 'run']);
    const again = await shown(world, 'same');
    expect(again.status).toBe('completed');
    expect(again.outcome.text).toBe(
      'already done: lathe/job-same is in the mirror (submit with --rerun to run it again)',
    );
    expect(again.outcome.output).toEqual(first.outcome.output);
    expect(world.requestsOf('same')).toBe(requests);

    // --rerun runs a completed job again, and its branch is made anew.
    const resubmitted = await submit('--rerun');
    expect(resubmitted.stdout).not.toMatch(/skipped/);
    await world.jobs(['jobs', 'run']);
    const rerun = await shown(world, 'same');
    expect(rerun.status).toBe('completed');
    expect(rerun.outcome.text).not.toMatch(/already done/);
    expect(world.requestsOf('same')).toBe(2 * requests);
    expect(branchFiles(rerun.outcome.output.repository, 'lathe/job-same')).toEqual(['same.txt']);
  }, 120_000);
});
