import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeModelServer } from '../support/fake_model_server.js';
import { jobNameOf } from '../support/job_fixtures.js';
import { pathWithoutBubblewrap } from '../support/no_bubblewrap.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { branchFiles, type JobWorld, makeWorld, shown } from './queue_behaviour.js';

const MODEL = ['--model', 'anthropic/claude-sonnet-4-5'];

describe('lathe jobs: bad input and budgets on the local queue', () => {
  let world: JobWorld;
  afterEach(async () => {
    await world?.server.close();
  });

  it('refuses a malformed job file with its line and field, queuing nothing', async () => {
    world = await makeWorld([]);
    const file = join(tempDir('lathe-batch-'), 'batch.jsonl');
    writeFileSync(
      file,
      `${JSON.stringify({ repo: world.repo, prompt: 'p' })}\n{"repo": "x", "prompt": "p", "output": "pr"}\n`,
    );
    const result = await world.jobs(['jobs', 'submit', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('lathe: batch.jsonl line 2: "output" must be "branch" or "patch"\n');
    expect((await world.jobs(['jobs', 'list'])).stdout).toBe('no jobs\n');
  });

  it('ends a job whose repository cannot be cloned as failed(clone), saying why', async () => {
    world = await makeWorld([]);
    const missing = join(tempDir('lathe-gone-'), 'nothing-here');
    await world.jobs(['jobs', 'submit', '--repo', missing, '--prompt', 'p', '--id', 'noclone', ...MODEL]);
    await world.jobs(['jobs', 'run']);
    const job = await shown(world, 'noclone');
    expect(job.status).toBe('failed');
    expect(job.outcome.failure.stage).toBe('clone');
    expect(job.outcome.failure.message).toMatch(new RegExp(`^cannot clone ${missing}: .*does not exist`));
  });

  it('refuses to run jobs on a machine without bubblewrap unless --sandbox off is given', async () => {
    world = await makeWorld([]);
    await world.jobs([
      'jobs',
      'submit',
      '--repo',
      world.repo,
      '--prompt',
      '[job nobwrap]',
      '--id',
      'nobwrap',
      ...MODEL,
    ]);
    const env = { PATH: pathWithoutBubblewrap() };
    const refused = await world.jobs(['jobs', 'run'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^lathe: this worker cannot run jobs in the sandbox: bubblewrap \(bwrap\) is not installed; install bubblewrap, or pass --sandbox off to run jobs without it\n$/,
    );
    expect((await shown(world, 'nobwrap')).status).toBe('queued');
    const ran = await world.jobs(['jobs', 'run', '--sandbox', 'off'], { env });
    expect(ran.code).toBe(0);
    expect((await shown(world, 'nobwrap')).status).toBe('completed');
  });

  it('stops a run at its seconds budget and keeps what it wrote on the partial branch', async () => {
    world = await makeWorld([]);
    await world.server.close();
    // The first request writes the file; the second never answers, until the budget ends the run.
    world.server = await FakeModelServer.start({
      fallback: {
        respond: (request) =>
          request.toolResults.length === 0
            ? {
                toolCalls: [
                  { name: 'write_to_file', input: { path: `${jobNameOf(request)}.txt`, content: 'x\n' } },
                ],
              }
            : { hang: true },
      },
    });
    world.env.ANTHROPIC_BASE_URL = world.server.url;
    await world.jobs([
      'jobs',
      'submit',
      '--repo',
      world.repo,
      '--prompt',
      '[job timed]',
      '--id',
      'timed',
      '--max-seconds',
      '4',
      ...MODEL,
    ]);
    await world.jobs(['jobs', 'run']);
    const job = await shown(world, 'timed');
    expect(job.status).toBe('budget_exhausted');
    expect(job.outcome.budgetExhausted).toBe('seconds (4 s)');
    expect(job.outcome.output.branch).toBe('lathe/job-timed-partial');
    expect(branchFiles(job.outcome.output.repository, 'lathe/job-timed-partial')).toEqual(['timed.txt']);
  });
});
