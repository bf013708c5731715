import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { documentsRoot, globalSettingsPath } from '../../config/paths.js';
import { readSettingsFile } from '../../config/settings.js';
import {
  bareSetup,
  JobInputError,
  type JobQueue,
  type JobSpec,
  jobExecutor,
  LocalQueue,
  outputText,
  parseJobSpec,
  probeJobSandbox,
  pruneDeadWorktrees,
  QueueUnreachableError,
  readJobFile,
  sandboxedJobSetup,
  statusText,
  summarize,
  summaryMarkdown,
} from '../../jobs/index.js';
import { UsageError } from '../errors.js';

export interface JobsOptions {
  queue?: string;
  json?: boolean;
  batch?: string;
}

/** The `jobs` section of the global settings: the queue, a worker's concurrency, BullMQ's lock time. */
interface JobsSettings {
  queue?: string;
  concurrency?: number;
  lockSeconds?: number;
}

function jobsSettings(root: string): JobsSettings {
  return (readSettingsFile(globalSettingsPath(root)).jobs as JobsSettings | undefined) ?? {};
}

/** The queue `--queue` (or settings `jobs.queue`) names: `local` (the default) or a redis:// address. */
async function openQueue(root: string, flag: string | undefined): Promise<JobQueue> {
  const settings = jobsSettings(root);
  const address = flag ?? process.env.LATHE_JOBS_QUEUE ?? settings.queue ?? 'local';
  if (address === 'local') return new LocalQueue(root);
  const { connectRedis } = await import('../../jobs/redis.js');
  const { BullQueue } = await import('../../jobs/bullmq_queue.js');
  const lockMs = settings.lockSeconds ? settings.lockSeconds * 1000 : undefined;
  return new BullQueue(await connectRedis(address), { lockMs });
}

/** Runs a jobs command with its queue; bad input and an unreachable queue are one line and exit 2. */
async function withQueue(
  opts: JobsOptions,
  work: (queue: JobQueue, root: string) => Promise<number>,
): Promise<number> {
  const root = documentsRoot();
  let queue: JobQueue | undefined;
  try {
    queue = await openQueue(root, opts.queue);
    return await work(queue, root);
  } catch (error) {
    if (error instanceof JobInputError || error instanceof QueueUnreachableError) {
      process.stderr.write(`lathe: ${error.message}\n`);
      return 2;
    }
    throw error;
  } finally {
    await queue?.close();
  }
}

export interface SubmitOptions extends JobsOptions {
  repo?: string;
  prompt?: string;
  ref?: string;
  id?: string;
  model?: string;
  profile?: string;
  output?: string;
  push?: boolean;
  priority?: string;
  maxTurns?: string;
  maxTokens?: string;
  maxSeconds?: string;
  maxCost?: string;
  setup: string[];
  include: string[];
  rerun?: boolean;
}

/** The jobs of `lathe jobs submit`: from the job file, or one from the flags. */
function specsToSubmit(file: string | undefined, opts: SubmitOptions): JobSpec[] {
  if (file) {
    if (opts.repo || opts.prompt) throw new UsageError('give a job file or --repo and --prompt, not both');
    return readJobFile(resolve(file));
  }
  if (!opts.repo || !opts.prompt)
    throw new UsageError('lathe jobs submit needs a job file, or --repo and --prompt');
  const number = (flag: string, value: string | undefined) => {
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!Number.isFinite(n)) throw new JobInputError(`${flag} must be a number (found "${value}")`);
    return n;
  };
  const budget = Object.fromEntries(
    Object.entries({
      turns: number('--max-turns', opts.maxTurns),
      tokens: number('--max-tokens', opts.maxTokens),
      seconds: number('--max-seconds', opts.maxSeconds),
      cost: number('--max-cost', opts.maxCost),
    }).filter(([, v]) => v !== undefined),
  );
  const raw = {
    repo: opts.repo,
    prompt: opts.prompt,
    ...(opts.ref ? { ref: opts.ref } : {}),
    ...(opts.id ? { id: opts.id } : {}),
    ...(opts.model ? { model: opts.model } : {}),
    ...(opts.profile ? { profile: opts.profile } : {}),
    ...(opts.output ? { output: opts.output } : {}),
    ...(opts.push ? { push: true } : {}),
    ...(opts.priority ? { priority: number('--priority', opts.priority) } : {}),
    budget,
    setup: opts.setup,
    include: opts.include,
  };
  return [parseJobSpec(raw, 'the command line', process.cwd())];
}

export async function jobsSubmitCommand(file: string | undefined, opts: SubmitOptions): Promise<number> {
  return withQueue(opts, async (queue) => {
    const specs = specsToSubmit(file, opts).map((spec) => (opts.rerun ? { ...spec, rerun: true } : spec));
    const batch = opts.batch ?? (file ? file.replace(/^.*\//, '').replace(/\.[^.]*$/, '') : undefined);
    const result = await queue.submit(specs, batch);
    if (opts.json) {
      process.stdout.write(`${JSON.stringify(result)}\n`);
      return 0;
    }
    for (const id of result.submitted) process.stdout.write(`queued ${id}\n`);
    for (const { id, status } of result.skipped) process.stdout.write(`skipped ${id}: already ${status}\n`);
    return 0;
  });
}

export async function jobsListCommand(opts: JobsOptions): Promise<number> {
  return withQueue(opts, async (queue) => {
    const views = (await queue.list()).filter((v) => !opts.batch || v.batch === opts.batch);
    if (opts.json) {
      process.stdout.write(`${JSON.stringify(views.map(summarize))}\n`);
      return 0;
    }
    if (views.length === 0) process.stdout.write('no jobs\n');
    for (const view of views) {
      const output = outputText(view.outcome?.output);
      process.stdout.write(`${view.id}  ${statusText(view)}${output ? `  ${output}` : ''}\n`);
    }
    return 0;
  });
}

export async function jobsShowCommand(id: string, opts: JobsOptions): Promise<number> {
  return withQueue(opts, async (queue) => {
    const view = await queue.get(id);
    if (!view) throw new JobInputError(`no job "${id}" in this queue (see lathe jobs list)`);
    if (opts.json) {
      process.stdout.write(`${JSON.stringify(view)}\n`);
      return 0;
    }
    const row = summarize(view);
    const lines = [
      `${view.id}  ${row.status}`,
      `repo: ${view.spec.repo} @ ${view.spec.ref}${view.outcome?.baseSha ? ` (${view.outcome.baseSha.slice(0, 12)})` : ''}`,
      `prompt: ${view.spec.prompt.split('\n')[0].slice(0, 200)}`,
      `attempts: ${view.attempts}${row.worker ? `, worker ${row.worker}` : ''}`,
    ];
    if (row.turns !== null || row.input_tokens !== null)
      lines.push(
        `usage: ${row.turns ?? '?'} turns, ${row.input_tokens ?? 0} input + ${row.output_tokens ?? 0} output tokens${row.cost_usd === null ? '' : `, $${row.cost_usd.toFixed(4)}`}`,
      );
    if (row.output) lines.push(`output: ${row.output}`);
    if (view.outcome?.files) lines.push(`files: ${view.outcome.files}`);
    if (row.result) lines.push(`result: ${row.result}`);
    process.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  });
}

export async function jobsLogsCommand(id: string, opts: JobsOptions): Promise<number> {
  return withQueue(opts, async (queue) => {
    if (!(await queue.get(id))) throw new JobInputError(`no job "${id}" in this queue (see lathe jobs list)`);
    for (const line of await queue.logs(id)) process.stdout.write(`${line}\n`);
    return 0;
  });
}

export async function jobsResultsCommand(opts: JobsOptions & { out?: string }): Promise<number> {
  return withQueue(opts, async (queue) => {
    const rows = (await queue.list()).filter((v) => !opts.batch || v.batch === opts.batch).map(summarize);
    const jsonl = rows.map((row) => JSON.stringify(row)).join('\n') + (rows.length > 0 ? '\n' : '');
    if (opts.out) {
      const dir = resolve(opts.out);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'results.jsonl'), jsonl);
      writeFileSync(join(dir, 'results.md'), summaryMarkdown(rows));
      process.stdout.write(
        `wrote ${join(dir, 'results.jsonl')} and ${join(dir, 'results.md')} (${rows.length} jobs)\n`,
      );
      return 0;
    }
    process.stdout.write(opts.json ? jsonl : summaryMarkdown(rows));
    return 0;
  });
}

export async function jobsCancelCommand(id: string, opts: JobsOptions): Promise<number> {
  return withQueue(opts, async (queue) => {
    const result = await queue.cancel(id);
    if (result === 'unknown') throw new JobInputError(`no job "${id}" in this queue (see lathe jobs list)`);
    const said = {
      cancelled: `cancelled ${id}`,
      cancelling: `cancelling ${id}: its run is being stopped`,
      finished: `${id} has already ended; nothing to cancel`,
    }[result];
    process.stdout.write(`${said}\n`);
    return 0;
  });
}

export interface WorkerOptions extends JobsOptions {
  concurrency?: string;
  sandbox?: string;
  latheBin?: string;
  /** `lathe jobs run`: stop once no job is waiting or running. */
  untilEmpty?: boolean;
}

/**
 * `lathe worker` and `lathe jobs run`: takes jobs from the queue and runs them, N at a time,
 * each in its own worktree and sandbox. Worktrees of jobs whose worker died are pruned at start
 * and before each job. SIGINT/SIGTERM: take no new job, let the running ones end.
 */
export async function workerCommand(opts: WorkerOptions): Promise<number> {
  return withQueue(opts, async (queue, root) => {
    const settings = jobsSettings(root);
    const concurrency = Number(opts.concurrency ?? settings.concurrency ?? 2);
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new JobInputError(
        `--concurrency must be a whole number of at least 1 (found "${opts.concurrency}")`,
      );
    if (!opts.latheBin) throw new JobInputError('this lathe was started without the path of its command');
    const sandbox = opts.sandbox === 'off' ? 'off' : 'workspace-write';
    if (opts.sandbox !== undefined && opts.sandbox !== 'off' && opts.sandbox !== 'workspace-write')
      throw new JobInputError('--sandbox of a worker is workspace-write (the default) or off');
    let runSetup = bareSetup;
    if (sandbox !== 'off') {
      const probe = await probeJobSandbox(root, process.cwd());
      if (probe.problem)
        throw new JobInputError(
          `this worker cannot run jobs in the sandbox: ${probe.problem}; install bubblewrap, or pass --sandbox off to run jobs without it`,
        );
      runSetup = sandboxedJobSetup(root, probe.unshareUser);
    }
    for (const dir of await pruneDeadWorktrees(root))
      process.stderr.write(`lathe: pruned the worktree of a dead job: ${dir}\n`);
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    try {
      await queue.work({
        concurrency,
        signal: stop.signal,
        untilEmpty: opts.untilEmpty,
        // `lathe jobs run` ends when the queue is empty; a long-lived worker says it is up.
        onReady: opts.untilEmpty
          ? undefined
          : (name) =>
              process.stderr.write(`lathe: worker ${name} is taking jobs (concurrency ${concurrency})\n`),
        execute: jobExecutor({
          documentsRoot: root,
          latheBin: opts.latheBin,
          sandbox,
          runSetup,
          env: process.env,
        }),
        beforeJob: async () => {
          for (const dir of await pruneDeadWorktrees(root))
            process.stderr.write(`lathe: pruned the worktree of a dead job: ${dir}\n`);
        },
      });
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    return 0;
  });
}
