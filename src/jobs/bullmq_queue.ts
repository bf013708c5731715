import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Job, type JobType, Queue, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { JobInfrastructureError } from './errors.js';
import type { JobSpec } from './job_spec.js';
import { RedisOutage } from './redis_outage.js';
import { rerunsCompleted } from './rerun.js';
import { startedTry, withEveryTry } from './tries.js';
import type {
  CancelResult,
  FailureStage,
  JobOutcome,
  JobQueue,
  JobTry,
  JobView,
  SubmitResult,
  WorkOptions,
} from './types.js';

const QUEUE_NAME = 'lathe-jobs';
const PREFIX = 'lathe';
/** Tries of a job whose infrastructure failed (a clone, a worktree); a job that ran is never retried. */
const ATTEMPTS = 3;
const BACKOFF_MS = 2_000;
/** BullMQ's lowest priority (2^21 - 1); a job's own is at most one higher. */
const LOWEST_PRIORITY = 2_097_151;
/** How often a running job looks for its cancellation key: well within the 2 s a cancel may take. */
const CANCEL_POLL_MS = 250;
const WAITING: JobType[] = ['waiting', 'prioritized', 'delayed', 'waiting-children'];
const ALL: JobType[] = [...WAITING, 'active', 'completed', 'failed'];

interface JobData {
  spec: JobSpec;
  batch?: string;
  submittedAt: string;
}

interface Progress {
  stage?: string;
  worker?: string;
}

export interface BullQueueOptions {
  /** How long a worker's lock on a job lasts without renewal: a killed worker's job moves on after it. */
  lockMs?: number;
}

const cancelKey = (id: string) => `${PREFIX}:${QUEUE_NAME}:cancel:${id}`;
/** A hash of try number → JobTry: what each try spent, also a try whose worker died. */
const triesKey = (id: string) => `${PREFIX}:${QUEUE_NAME}:tries:${id}`;
/**
 * The jobs cancelled while waiting, taken out of BullMQ: a hash of id → CancelledRecord. Outside
 * BullMQ's own keys (`lathe:lathe-jobs:…`), so no job id can name it.
 */
const CANCELLED_KEY = `${PREFIX}:${QUEUE_NAME}-cancelled`;

interface CancelledRecord {
  view: JobView;
  logs: string[];
}

/**
 * Jobs on BullMQ over Redis: `submit` enqueues with the job id as BullMQ's job id (so the same
 * job submitted twice is one job), workers on any number of machines take them with BullMQ's
 * locks, stalled-job recovery, retries with backoff and priorities. A cancellation is a key in
 * Redis that the job's worker, wherever it runs, looks for.
 */
export class BullQueue implements JobQueue {
  private readonly queue: Queue<JobData, JobOutcome>;
  private readonly lockMs: number;
  private readonly outage: RedisOutage;

  constructor(
    private readonly redis: Redis,
    options: BullQueueOptions = {},
  ) {
    this.queue = new Queue<JobData, JobOutcome>(QUEUE_NAME, { connection: redis, prefix: PREFIX });
    this.lockMs = options.lockMs ?? 30_000;
    // Every connection's errors go through one reporter: a line per outage, not one per retry.
    this.outage = new RedisOutage(`${redis.options.host ?? 'localhost'}:${redis.options.port ?? 6379}`);
    this.queue.on('error', (error) => this.outage.error(error));
    redis.on('error', (error: Error) => this.outage.error(error));
    redis.on('ready', () => this.outage.ready());
  }

  async submit(specs: readonly JobSpec[], batch?: string): Promise<SubmitResult> {
    const result: SubmitResult = { submitted: [], skipped: [] };
    for (const spec of specs) {
      const existing = await this.get(spec.id);
      const kept = ['queued', 'running', 'completed'].includes(existing?.status ?? '');
      if (existing && kept && !rerunsCompleted(spec, existing.status)) {
        result.skipped.push({ id: spec.id, status: existing.status });
        continue;
      }
      if (existing) await (await this.queue.getJob(spec.id))?.remove();
      await this.redis.del(cancelKey(spec.id), triesKey(spec.id));
      await this.redis.hdel(CANCELLED_KEY, spec.id);
      const data: JobData = { spec, submittedAt: new Date().toISOString(), ...(batch ? { batch } : {}) };
      await this.queue.add('job', data, {
        jobId: spec.id,
        attempts: ATTEMPTS,
        backoff: { type: 'exponential', delay: BACKOFF_MS },
        removeOnComplete: false,
        removeOnFail: false,
        // BullMQ runs jobs without a priority first; lathe runs them after the prioritised ones.
        priority: spec.priority ?? LOWEST_PRIORITY,
      });
      result.submitted.push(spec.id);
    }
    return result;
  }

  async list(): Promise<JobView[]> {
    const views: JobView[] = [];
    for (const type of ALL) {
      for (const job of await this.queue.getJobs(type, 0, -1, true))
        if (job?.id) views.push(await this.view(job as Job<JobData, JobOutcome>, type));
    }
    const inBull = new Set(views.map((v) => v.id));
    for (const text of Object.values(await this.redis.hgetall(CANCELLED_KEY))) {
      const { view } = JSON.parse(text) as CancelledRecord;
      if (!inBull.has(view.id)) views.push(view);
    }
    return views.sort((a, b) => a.submittedAt.localeCompare(b.submittedAt) || a.id.localeCompare(b.id));
  }

  async get(id: string): Promise<JobView | undefined> {
    const job = (await this.queue.getJob(id)) as Job<JobData, JobOutcome> | undefined;
    if (!job) return (await this.cancelledRecord(id))?.view;
    return this.view(job, await job.getState());
  }

  private async cancelledRecord(id: string): Promise<CancelledRecord | undefined> {
    const text = await this.redis.hget(CANCELLED_KEY, id);
    return text ? (JSON.parse(text) as CancelledRecord) : undefined;
  }

  private async view(job: Job<JobData, JobOutcome>, state: string): Promise<JobView> {
    const progress = (typeof job.progress === 'object' ? job.progress : {}) as Progress;
    const base: JobView = {
      id: job.id as string,
      spec: job.data.spec,
      ...(job.data.batch ? { batch: job.data.batch } : {}),
      status: 'queued',
      // Every start counts, also one whose worker died (BullMQ counts those apart from failures).
      attempts: Math.max(job.attemptsStarted ?? 0, job.attemptsMade + (state === 'active' ? 1 : 0)),
      submittedAt: job.data.submittedAt,
      ...(job.processedOn ? { startedAt: new Date(job.processedOn).toISOString() } : {}),
      ...(job.finishedOn ? { finishedAt: new Date(job.finishedOn).toISOString() } : {}),
      ...(progress.worker ? { worker: progress.worker } : {}),
    };
    if (state === 'completed' && job.returnvalue)
      return { ...base, status: job.returnvalue.status, outcome: job.returnvalue };
    if (state === 'failed') {
      const [, stage, message] = /^(\w+): ([\s\S]*)$/.exec(job.failedReason ?? '') ?? [];
      const failure = stage
        ? { stage: stage as FailureStage, message }
        : { stage: 'run' as FailureStage, message: job.failedReason ?? 'failed' };
      return { ...base, status: 'failed', outcome: { status: 'failed', failure } };
    }
    const cancelRequested = (await this.redis.exists(cancelKey(base.id))) === 1;
    if (state === 'active')
      return {
        ...base,
        status: 'running',
        ...(progress.stage ? { stage: progress.stage } : {}),
        ...(cancelRequested ? { cancelRequested } : {}),
      };
    return { ...base, status: cancelRequested ? 'cancelled' : 'queued' };
  }

  async logs(id: string): Promise<string[]> {
    if (!(await this.queue.getJob(id))) return (await this.cancelledRecord(id))?.logs ?? [];
    return (await this.queue.getJobLogs(id, 0, -1, true)).logs;
  }

  /**
   * A waiting job is taken out of BullMQ's wait list at once (and kept as a cancelled record);
   * a running one, or one a worker took meanwhile, is told to stop through its cancellation key.
   */
  async cancel(id: string): Promise<CancelResult> {
    const job = (await this.queue.getJob(id)) as Job<JobData, JobOutcome> | undefined;
    if (!job) return (await this.cancelledRecord(id)) ? 'cancelled' : 'unknown';
    const view = await this.view(job, await job.getState());
    if (!['queued', 'running'].includes(view.status))
      return view.status === 'cancelled' ? 'cancelled' : 'finished';
    if (view.status === 'queued' && (await this.removeWaiting(job, view))) return 'cancelled';
    await this.redis.set(cancelKey(id), '1', 'EX', 7 * 24 * 3600);
    return 'cancelling';
  }

  /**
   * Removes a waiting job from BullMQ, its record written first so a crash in between loses no
   * job. BullMQ refuses to remove a job a worker holds the lock of: then the record goes and
   * false says the job is running.
   */
  private async removeWaiting(job: Job<JobData, JobOutcome>, view: JobView): Promise<boolean> {
    const finishedAt = new Date().toISOString();
    const { cancelRequested: _asked, ...waiting } = view;
    const record: CancelledRecord = {
      view: { ...waiting, status: 'cancelled', finishedAt, outcome: { status: 'cancelled', finishedAt } },
      logs: (await this.queue.getJobLogs(view.id, 0, -1, true)).logs,
    };
    await this.redis.hset(CANCELLED_KEY, view.id, JSON.stringify(record));
    try {
      await job.remove();
      await this.redis.del(cancelKey(view.id));
      return true;
    } catch {
      await this.redis.hdel(CANCELLED_KEY, view.id);
      return false;
    }
  }

  async work(options: WorkOptions): Promise<void> {
    const name = `${hostname()}:${process.pid}`;
    const worker = new Worker<JobData, JobOutcome>(
      QUEUE_NAME,
      (job, _token, signal) => this.process(job, name, options, signal),
      {
        connection: this.redis,
        prefix: PREFIX,
        concurrency: options.concurrency,
        lockDuration: this.lockMs,
        stalledInterval: Math.max(1_000, Math.min(30_000, Math.floor(this.lockMs / 2))),
        maxStalledCount: 2,
        // Seconds a worker's blocking wait for a job lasts: closing waits for it to end.
        drainDelay: 1,
      },
    );
    worker.on('error', (error) => this.outage.error(error));
    await worker.waitUntilReady();
    options.onReady?.(name);
    const stopped = new Promise<void>((resolve) => {
      if (options.signal.aborted) resolve();
      options.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    if (options.untilEmpty) {
      while (!options.signal.aborted) {
        const counts = await this.queue.getJobCounts(...WAITING, 'active');
        if (Object.values(counts).every((n) => n === 0)) break;
        await Promise.race([sleep(500), stopped]);
      }
    } else {
      await stopped;
    }
    await worker.close();
  }

  private async process(
    job: Job<JobData, JobOutcome>,
    worker: string,
    options: WorkOptions,
    bullSignal?: AbortSignal,
  ): Promise<JobOutcome> {
    const id = job.id as string;
    const cancel = new AbortController();
    bullSignal?.addEventListener('abort', () => cancel.abort(), { once: true });
    const watch = setInterval(() => {
      void this.redis.exists(cancelKey(id)).then(
        (n) => n === 1 && cancel.abort(),
        () => undefined,
      );
    }, CANCEL_POLL_MS);
    const attempt = Math.max(1, job.attemptsStarted ?? 0);
    const current = startedTry(attempt, worker);
    const record = (entry: JobTry) =>
      this.redis.hset(triesKey(id), String(entry.attempt), JSON.stringify(entry));
    try {
      if ((await this.redis.exists(cancelKey(id))) === 1)
        return { status: 'cancelled', worker, finishedAt: new Date().toISOString() };
      await options.beforeJob?.();
      await job.updateProgress({ stage: 'start', worker });
      await record(current);
      const outcome = await options.execute({
        spec: job.data.spec,
        signal: cancel.signal,
        worker,
        submittedAt: job.data.submittedAt,
        log: (line) => void job.log(line).catch(() => undefined),
        stage: (stage) => void job.updateProgress({ stage, worker }).catch(() => undefined),
        spent: (spend) => void record(Object.assign(current, spend)).catch(() => undefined),
      });
      return withEveryTry(outcome, await this.tries(id), attempt);
    } catch (error) {
      current.ended = 'failed';
      await record(current).catch(() => undefined);
      if (error instanceof JobInfrastructureError) {
        await job.log(retryLine(job.attemptsMade + 1, error)).catch(() => undefined);
        throw new Error(`${error.stage}: ${error.message}`);
      }
      throw new UnrecoverableError(`run: ${(error as Error).message}`);
    } finally {
      clearInterval(watch);
    }
  }

  /** The tries of a job recorded so far. */
  private async tries(id: string): Promise<JobTry[]> {
    return Object.values(await this.redis.hgetall(triesKey(id))).map((text) => JSON.parse(text) as JobTry);
  }

  async close(): Promise<void> {
    await this.queue.close();
    this.redis.disconnect();
  }
}

/** The log line of an infrastructure failure: which try it was, and when the next one comes. */
function retryLine(attempt: number, error: JobInfrastructureError): string {
  const next =
    attempt < ATTEMPTS ? `tried again in ${(BACKOFF_MS * 2 ** (attempt - 1)) / 1000} s` : 'no tries left';
  return `try ${attempt} of ${ATTEMPTS} failed at ${error.stage}: ${error.message}; ${next}`;
}
