import { type ChildProcess, execFileSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeModelServer } from '../support/fake_model_server.js';
import { jobNameOf, workTurn } from '../support/job_fixtures.js';
import { pathWithoutBubblewrap } from '../support/no_bubblewrap.js';
import { processesCarrying, uniqueToken } from '../support/processes.js';
import { testNeeds } from '../support/required_programs.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { branchFiles, type JobWorld, makeWorld, shown } from './queue_behaviour.js';

const MODEL = ['--model', 'anthropic/claude-sonnet-4-5'];

describe('lathe jobs: bad input, budgets and repository options on the local queue', () => {
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

  testNeeds('bwrap')(
    'ends a job whose repository cannot be cloned as failed(clone), saying why',
    async () => {
      world = await makeWorld([]);
      const missing = join(tempDir('lathe-gone-'), 'nothing-here');
      await world.jobs(['jobs', 'submit', '--repo', missing, '--prompt', 'p', '--id', 'noclone', ...MODEL]);
      await world.jobs(['jobs', 'run']);
      const job = await shown(world, 'noclone');
      expect(job.status).toBe('failed');
      expect(job.outcome.failure.stage).toBe('clone');
      expect(job.outcome.failure.message).toMatch(new RegExp(`^cannot clone ${missing}: .*does not exist`));
    },
  );

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

  testNeeds('bwrap')(
    'stops a run at its seconds budget and keeps what it wrote on the partial branch',
    async () => {
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
    },
  );

  testNeeds('bwrap')(
    'copies the included files in before the setup commands, and leaves them out of the branch',
    async () => {
      world = await makeWorld([]);
      writeFileSync(join(world.repo, '.gitignore'), '.env\n');
      writeFileSync(join(world.repo, '.env'), 'TOKEN=1\n');
      const args = [
        '--prompt',
        '[job inc]',
        '--id',
        'inc',
        '--include',
        '.env',
        '--setup',
        'grep -q TOKEN=1 .env',
      ];
      await world.jobs(['jobs', 'submit', '--repo', world.repo, ...args, ...MODEL]);
      await world.jobs(['jobs', 'run']);
      const job = await shown(world, 'inc');
      expect(job.status).toBe('completed');
      expect(branchFiles(job.outcome.output.repository, 'lathe/job-inc')).toEqual(['inc.txt']);
    },
  );

  testNeeds('bwrap')('pushes the branch to a repository given by URL when the job says push', async () => {
    world = await makeWorld([]);
    const remote = join(tempDir('lathe-remote-'), 'origin.git');
    execFileSync('git', ['clone', '--quiet', '--bare', world.repo, remote]);
    const args = ['--prompt', '[job pushed]', '--id', 'pushed', '--push'];
    await world.jobs(['jobs', 'submit', '--repo', `file://${remote}`, ...args, ...MODEL]);
    await world.jobs(['jobs', 'run']);
    const job = await shown(world, 'pushed');
    expect(job.outcome.output).toMatchObject({
      kind: 'branch',
      branch: 'lathe/job-pushed',
      pushedTo: `file://${remote}`,
    });
    expect(branchFiles(remote, 'lathe/job-pushed')).toEqual(['pushed.txt']);
  });

  testNeeds('bwrap')('stops a run at its tokens budget, from the usage the run reports', async () => {
    world = await makeWorld([]);
    await world.server.close();
    // Each request writes a file; the second reports enough tokens to pass the budget.
    world.server = await FakeModelServer.start({
      fallback: {
        respond: (request) => ({
          toolCalls: [
            { name: 'write_to_file', input: { path: `t${request.toolResults.length}.txt`, content: 'x\n' } },
          ],
          usage:
            request.toolResults.length === 0
              ? { inputTokens: 40, outputTokens: 10 }
              : { inputTokens: 900, outputTokens: 100 },
        }),
      },
    });
    world.env.ANTHROPIC_BASE_URL = world.server.url;
    await world.jobs([
      'jobs',
      'submit',
      '--repo',
      world.repo,
      '--prompt',
      'p',
      '--id',
      'tok',
      '--max-tokens',
      '500',
      ...MODEL,
    ]);
    await world.jobs(['jobs', 'run']);
    const job = await shown(world, 'tok');
    expect(job.status).toBe('budget_exhausted');
    expect(job.outcome.budgetExhausted).toBe('tokens (1050 of 500)');
    // The response that passed the budget ran none of its calls.
    expect(branchFiles(job.outcome.output.repository, 'lathe/job-tok-partial')).toEqual(['t0.txt']);
  });

  testNeeds('bwrap')(
    'stops a run at its cost budget, keeps its work on the partial branch and collects its cost',
    async () => {
      world = await makeWorld([]);
      await world.server.close();
      // claude-sonnet-4-5 costs $3 / $15 a million input / output tokens: the first request $0.0045,
      // the second $0.45, past the $0.10 budget. Each writes a file; a third never answers.
      let served = 0;
      world.server = await FakeModelServer.start({
        fallback: {
          respond: () => {
            const n = served++;
            if (n >= 2) return { hang: true };
            return {
              toolCalls: [{ name: 'write_to_file', input: { path: `c${n}.txt`, content: 'x\n' } }],
              usage:
                n === 0
                  ? { inputTokens: 1_000, outputTokens: 100 }
                  : { inputTokens: 100_000, outputTokens: 10_000 },
            };
          },
        },
      });
      world.env.ANTHROPIC_BASE_URL = world.server.url;
      await world.jobs([
        'jobs',
        'submit',
        '--repo',
        world.repo,
        '--prompt',
        'p',
        '--id',
        'dear',
        '--max-cost',
        '0.1',
        ...MODEL,
      ]);
      await world.jobs(['jobs', 'run']);
      const job = await shown(world, 'dear');
      expect(job.status).toBe('budget_exhausted');
      expect(job.outcome.budgetExhausted).toBe('cost ($0.4545 of $0.1)');
      expect(job.outcome.costUsd).toBeCloseTo(0.4545, 6);
      expect(job.outcome.usage).toEqual({ inputTokens: 101_000, outputTokens: 10_100 });
      expect(job.outcome.output.branch).toBe('lathe/job-dear-partial');
      // The response that passed the budget ran none of its calls, and no request followed it.
      expect(branchFiles(job.outcome.output.repository, 'lathe/job-dear-partial')).toEqual(['c0.txt']);
      expect(world.server.requests.filter((r) => r.kind === 'model')).toHaveLength(2);
      const row = JSON.parse((await world.jobs(['jobs', 'list', '--json'])).stdout)[0];
      expect(row).toMatchObject({ id: 'dear', cost_usd: job.outcome.costUsd });
    },
  );

  testNeeds('bwrap')(
    'queues the job of a runner killed mid-job again, and the next runner prunes its worktree',
    async () => {
      world = await makeWorld([], { slowMs: 3_000 });
      await world.jobs([
        'jobs',
        'submit',
        '--repo',
        world.repo,
        '--prompt',
        '[job again]',
        '--id',
        'again',
        ...MODEL,
      ]);
      const token = uniqueToken('killed-runner');
      let runner: ChildProcess | undefined;
      const first = world.jobs(['jobs', 'run'], {
        env: { LATHE_TEST_TOKEN: token },
        onSpawn: (c) => (runner = c),
      });
      await world.server.untilModelRequests(1);
      const left = readdirSync(join(world.home, 'jobs', 'worktrees')).filter((n) => !n.endsWith('.json'));
      runner?.kill('SIGKILL');
      await first;
      expect((await shown(world, 'again')).status).toBe('running');
      await world.server.close();
      world.server = await FakeModelServer.start({ fallback: workTurn() });
      world.env.ANTHROPIC_BASE_URL = world.server.url;
      const second = await world.jobs(['jobs', 'run']);
      expect(second.stderr).toContain(
        `lathe: pruned the worktree of a dead job: ${join(world.home, 'jobs', 'worktrees', left[0])}`,
      );
      const job = await shown(world, 'again');
      expect(job).toMatchObject({ status: 'completed', attempts: 2 });
      expect(processesCarrying(token)).toEqual([]);
      expect(readdirSync(join(world.home, 'jobs', 'worktrees'))).toEqual([]);
    },
  );
});
