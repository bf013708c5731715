import { type ChildProcess, execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { latheAsync } from '../support/cli.js';
import type { FakeModelServer } from '../support/fake_model_server.js';
import { fakeModelEnv } from '../support/headless_run.js';
import { jobNameOf, jobRepo, workServer } from '../support/job_fixtures.js';
import { eventually, processesCarrying, uniqueToken } from '../support/processes.js';
import { tempDir } from '../support/runtime_fixtures.js';

const MODEL = ['--model', 'anthropic/claude-sonnet-4-5'];

/** A test that runs the built command for several jobs, one after another: long on a loaded machine. */
const itRunningSeveral = (name: string, test: () => Promise<void>) => it(name, test, 90_000);

/** One test's world: a LATHE_HOME, a repository, the fake model server and the queue's flags. */
export interface JobWorld {
  home: string;
  repo: string;
  server: FakeModelServer;
  env: Record<string, string>;
  queue: string[];
  /** `lathe jobs …` (or any lathe command) with this world's environment and queue. */
  jobs(
    args: string[],
    options?: { onSpawn?: (child: ChildProcess) => void; env?: Record<string, string> },
  ): ReturnType<typeof latheAsync>;
  /** The model requests of the job whose prompt holds `[job NAME]`. */
  requestsOf(name: string): number;
}

export async function makeWorld(queue: string[], options: { slowMs?: number } = {}): Promise<JobWorld> {
  const server = await workServer(options);
  const home = tempDir('lathe-jobs-home-');
  const env = fakeModelEnv(server, home);
  return {
    home,
    repo: jobRepo(),
    server,
    env,
    queue,
    jobs: (args, more = {}) =>
      latheAsync(args[0] === 'jobs' || args[0] === 'worker' ? [...args, ...queue] : args, {
        env: { ...env, ...more.env },
        onSpawn: more.onSpawn,
      }),
    requestsOf: (name) => server.requests.filter((r) => r.kind === 'model' && jobNameOf(r) === name).length,
  };
}

/** The files of a branch's tip commit in a bare mirror, as `git show --name-only` lists them. */
export function branchFiles(mirror: string, branch: string): string[] {
  return execFileSync('git', ['show', '--format=', '--name-only', branch], { cwd: mirror, encoding: 'utf8' })
    .trim()
    .split('\n')
    .filter(Boolean);
}

/** `lathe jobs show ID --json`, parsed. */
export async function shown(world: JobWorld, id: string) {
  const result = await world.jobs(['jobs', 'show', id, '--json']);
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout);
}

/**
 * The behaviour every queue shares, one machine being enough: `world()` gives each test its
 * world, `queue` the flags that name the queue (none: local).
 */
export function queueBehaviour(
  setUp: () => Promise<string[]>,
  tearDown: () => Promise<void> = async () => {},
): void {
  let world: JobWorld;
  const submit = (id: string, extra: string[] = []) =>
    world.jobs([
      'jobs',
      'submit',
      '--repo',
      world.repo,
      '--prompt',
      `change a file [job ${id}]`,
      '--id',
      id,
      ...MODEL,
      ...extra,
    ]);
  const run = () => world.jobs(['jobs', 'run', '--concurrency', '2']);

  beforeEach(async () => {
    world = await makeWorld(await setUp());
  });
  afterEach(async () => {
    await world.server.close();
    await tearDown();
  });

  it('runs a job to completed and commits its work on lathe/job-<id> in the mirror', async () => {
    expect((await submit('one')).stdout).toBe('queued one\n');
    const ran = await run();
    expect(ran.code).toBe(0);
    const job = await shown(world, 'one');
    expect(job.status).toBe('completed');
    expect(job.outcome).toMatchObject({
      text: 'done with one',
      turns: 2,
      usage: { inputTokens: 200, outputTokens: 40 },
    });
    expect(job.outcome.output).toMatchObject({ kind: 'branch', branch: 'lathe/job-one' });
    expect(branchFiles(job.outcome.output.repository, 'lathe/job-one')).toEqual(['one.txt']);
    // The worktree is gone once the job has ended.
    expect(readdirSync(join(world.home, 'jobs', 'worktrees'))).toEqual([]);
    const logs = await world.jobs(['jobs', 'logs', 'one']);
    expect(logs.stdout).toMatch(/ended completed/);
  });

  itRunningSeveral('runs a job submitted twice under one idempotency key once', async () => {
    await submit('twice');
    expect((await submit('twice')).stdout).toBe('skipped twice: already queued\n');
    await run();
    expect((await submit('twice')).stdout).toBe('skipped twice: already completed\n');
    await run();
    expect(world.requestsOf('twice')).toBe(2);
  });

  itRunningSeveral('skips the completed jobs of a re-submitted batch and runs only the new one', async () => {
    const dir = tempDir('lathe-batch-');
    const line = (name: string) =>
      `${JSON.stringify({ id: name, repo: world.repo, prompt: `[job ${name}]`, model: 'anthropic/claude-sonnet-4-5' })}\n`;
    writeFileSync(join(dir, 'batch.jsonl'), line('b1') + line('b2'));
    await world.jobs(['jobs', 'submit', join(dir, 'batch.jsonl')]);
    await run();
    writeFileSync(join(dir, 'batch.jsonl'), line('b1') + line('b2') + line('b3'));
    const again = await world.jobs(['jobs', 'submit', join(dir, 'batch.jsonl'), '--json']);
    expect(JSON.parse(again.stdout)).toEqual({
      submitted: ['b3'],
      skipped: [
        { id: 'b1', status: 'completed' },
        { id: 'b2', status: 'completed' },
      ],
    });
    await run();
    expect([world.requestsOf('b1'), world.requestsOf('b2'), world.requestsOf('b3')]).toEqual([2, 2, 2]);
    const results = await world.jobs(['jobs', 'results', '--batch', 'batch', '--out', dir]);
    expect(results.code).toBe(0);
    const rows = readFileSync(join(dir, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.map((r) => [r.id, r.status])).toEqual([
      ['b1', 'completed'],
      ['b2', 'completed'],
      ['b3', 'completed'],
    ]);
    expect(readFileSync(join(dir, 'results.md'), 'utf8')).toMatch(/3 jobs: 3 completed/);
  });

  it('keeps the work of a run whose turns budget ran out on lathe/job-<id>-partial', async () => {
    await submit('short', ['--max-turns', '1']);
    await run();
    const job = await shown(world, 'short');
    expect(job.status).toBe('budget_exhausted');
    expect(job.outcome.subtype).toBe('max_turns');
    expect(job.outcome.output.branch).toBe('lathe/job-short-partial');
    expect(branchFiles(job.outcome.output.repository, 'lathe/job-short-partial')).toEqual(['short.txt']);
  });

  it('ends a job whose setup command fails as failed(setup), with its output, before any model request', async () => {
    await submit('badsetup', ['--setup', 'echo missing-tool >&2; exit 3']);
    await run();
    const job = await shown(world, 'badsetup');
    expect(job.status).toBe('failed');
    expect(job.outcome.failure.stage).toBe('setup');
    expect(job.outcome.failure.message).toMatch(/exited with status 3:\nmissing-tool/);
    expect(world.requestsOf('badsetup')).toBe(0);
    expect((await world.jobs(['jobs', 'list'])).stdout).toMatch(/^badsetup {2}failed\(setup\)$/m);
  });

  it('ends a job whose ref does not exist as failed(ref)', async () => {
    await submit('noref', ['--ref', 'no-such-branch']);
    await run();
    const job = await shown(world, 'noref');
    expect(job.outcome.failure).toEqual({
      stage: 'ref',
      message: `${world.repo} has no branch, tag or commit "no-such-branch"`,
    });
  });

  it('writes a patch file when the job asks for a patch', async () => {
    await submit('patched', ['--output', 'patch']);
    await run();
    const job = await shown(world, 'patched');
    expect(job.outcome.output.kind).toBe('patch');
    expect(readFileSync(job.outcome.output.path, 'utf8')).toMatch(
      /\+\+\+ b\/patched\.txt\n@@ -0,0 \+1 @@\n\+work of patched/,
    );
  });

  itRunningSeveral('runs waiting jobs by priority, 1 first, and jobs without one last', async () => {
    await submit('none');
    await submit('low', ['--priority', '5']);
    await submit('high', ['--priority', '1']);
    await world.jobs(['jobs', 'run', '--concurrency', '1']);
    const rows = JSON.parse((await world.jobs(['jobs', 'list', '--json'])).stdout) as Array<{
      id: string;
      started_at: string;
    }>;
    const order = rows.sort((a, b) => a.started_at.localeCompare(b.started_at)).map((r) => r.id);
    expect(order).toEqual(['high', 'low', 'none']);
  });

  it('stops a running job and its processes on lathe jobs cancel', async () => {
    await world.server.close();
    world = await makeWorld(world.queue, { slowMs: 2_000 });
    const token = uniqueToken('cancel');
    await submit('slow');
    const worker = world.jobs(['jobs', 'run'], { env: { LATHE_TEST_TOKEN: token } });
    await world.server.untilModelRequests(1);
    const runs = () => processesCarrying(token).filter((pid) => cmdline(pid).includes('--print='));
    expect(runs().length).toBeGreaterThan(0);
    const cancelled = await world.jobs(['jobs', 'cancel', 'slow']);
    expect(cancelled.stdout).toBe('cancelling slow: its run is being stopped\n');
    await eventually(() => runs().length === 0);
    await worker;
    const job = await shown(world, 'slow');
    expect(job.status).toBe('cancelled');
    expect(readdirSync(join(world.home, 'jobs', 'worktrees'))).toEqual([]);
  });
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}
