import { type FSWatcher, watch } from 'node:fs';
import * as fs from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { replaceJsonFile } from '../util/json_file.js';
import { isProcessAlive, type ProcessIdentity, processIdentity } from '../util/process_identity.js';
import { withLock } from '../worktree/lock.js';
import { JobInfrastructureError } from './errors.js';
import type { JobSpec } from './job_spec.js';
import { jobFilesDir, localQueueDir } from './paths.js';
import { rerunsCompleted } from './rerun.js';
import { startedTry, withEveryTry } from './tries.js';
import type {
  CancelResult,
  JobOutcome,
  JobQueue,
  JobTry,
  JobView,
  SubmitResult,
  WorkOptions,
} from './types.js';

/** A job of the local queue on disk: its view, its place in line, the process running it, its tries. */
interface LocalRecord extends JobView {
  seq: number;
  runner?: ProcessIdentity;
  tries?: JobTry[];
}

/** How often a running job's record is read for a cancellation. */
const CANCEL_POLL_MS = 200;
/** How often an idle runner looks at the queue when no change of its folder woke it. */
const POLL_MS = 500;
/** States a re-submitted job is left in; any other end state is queued again. */
const KEPT: ReadonlySet<string> = new Set(['queued', 'running', 'completed']);

/**
 * The embedded queue: one JSON file per job under `$LATHE_HOME/jobs/queue/`, every change made
 * under one lock file, so any number of `lathe jobs submit` and `lathe jobs run` processes of
 * this machine share it. A job whose runner died is queued again when a runner next takes a job.
 */
export class LocalQueue implements JobQueue {
  private readonly dir: string;
  private readonly lockPath: string;

  constructor(private readonly documentsRoot: string) {
    this.dir = join(localQueueDir(documentsRoot), 'jobs');
    this.lockPath = join(localQueueDir(documentsRoot), 'queue.lock');
  }

  private path(id: string): string {
    return join(this.dir, `${id}.json`);
  }

  private async read(id: string): Promise<LocalRecord | undefined> {
    try {
      return JSON.parse(await fs.readFile(this.path(id), 'utf8')) as LocalRecord;
    } catch {
      return undefined;
    }
  }

  /** Written whole and renamed into place: a reader never sees half a record. */
  private write(record: LocalRecord): Promise<void> {
    return replaceJsonFile(this.path(record.id), record, { pretty: true });
  }

  private async all(): Promise<LocalRecord[]> {
    const names = await fs.readdir(this.dir).catch(() => [] as string[]);
    const records = await Promise.all(
      names.filter((n) => n.endsWith('.json')).map((n) => this.read(n.slice(0, -'.json'.length))),
    );
    return records.filter((r): r is LocalRecord => r !== undefined).sort((a, b) => a.seq - b.seq);
  }

  private locked<T>(work: () => Promise<T>): Promise<T> {
    return withLock(this.lockPath, work);
  }

  private async update(id: string, change: (record: LocalRecord) => void): Promise<LocalRecord | undefined> {
    return this.locked(async () => {
      const record = await this.read(id);
      if (!record) return undefined;
      change(record);
      await this.write(record);
      return record;
    });
  }

  async submit(specs: readonly JobSpec[], batch?: string): Promise<SubmitResult> {
    await fs.mkdir(this.dir, { recursive: true });
    return this.locked(async () => {
      const result: SubmitResult = { submitted: [], skipped: [] };
      let seq = Math.max(0, ...(await this.all()).map((r) => r.seq));
      for (const spec of specs) {
        const existing = await this.read(spec.id);
        if (existing && KEPT.has(existing.status) && !rerunsCompleted(spec, existing.status)) {
          result.skipped.push({ id: spec.id, status: existing.status });
          continue;
        }
        await this.write({
          id: spec.id,
          spec,
          ...(batch ? { batch } : {}),
          status: 'queued',
          attempts: existing?.attempts ?? 0,
          ...(existing?.tries ? { tries: existing.tries } : {}),
          submittedAt: new Date().toISOString(),
          seq: ++seq,
        });
        result.submitted.push(spec.id);
      }
      return result;
    });
  }

  async list(): Promise<JobView[]> {
    return (await this.all()).map(toView);
  }

  async get(id: string): Promise<JobView | undefined> {
    const record = await this.read(id);
    return record && toView(record);
  }

  async logs(id: string): Promise<string[]> {
    const text = await fs
      .readFile(join(jobFilesDir(this.documentsRoot, id), 'job.log'), 'utf8')
      .catch(() => '');
    return text.split('\n').filter(Boolean);
  }

  async cancel(id: string): Promise<CancelResult> {
    let result: CancelResult = 'unknown';
    await this.update(id, (record) => {
      if (record.status === 'queued') {
        record.status = 'cancelled';
        record.finishedAt = new Date().toISOString();
        record.outcome = { status: 'cancelled', finishedAt: record.finishedAt };
        result = 'cancelled';
      } else if (record.status === 'running') {
        record.cancelRequested = true;
        result = 'cancelling';
      } else {
        result = 'finished';
      }
    });
    return result;
  }

  /** Takes the next waiting job (highest priority, then oldest), first queuing again the jobs of dead runners. */
  private async claim(worker: string): Promise<LocalRecord | undefined> {
    return this.locked(async () => {
      const records = await this.all();
      for (const record of records) {
        if (record.status === 'running' && record.runner && !isProcessAlive(record.runner)) {
          record.status = 'queued';
          record.stage = undefined;
          await this.write(record);
        }
      }
      const waiting = records.filter((r) => r.status === 'queued');
      waiting.sort((a, b) => (a.spec.priority ?? Infinity) - (b.spec.priority ?? Infinity) || a.seq - b.seq);
      const next = waiting[0];
      if (!next) return undefined;
      next.status = 'running';
      next.worker = worker;
      next.runner = processIdentity();
      next.attempts += 1;
      next.tries = [...(next.tries ?? []), startedTry(next.attempts, worker)];
      next.startedAt = new Date().toISOString();
      await this.write(next);
      return next;
    });
  }

  async work(options: WorkOptions): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true });
    const worker = `${hostname()}:${process.pid}`;
    const running = new Set<Promise<void>>();
    // A submission wakes the loop at once; the poll is the fallback where watching does not work.
    let wake: () => void = () => undefined;
    const watcher = watchFolder(this.dir, () => wake());
    options.onReady?.(worker);
    while (!options.signal.aborted) {
      if (running.size < options.concurrency) {
        await options.beforeJob?.();
        const job = await this.claim(worker);
        if (job) {
          const done: Promise<void> = this.run(job, worker, options).finally(() => running.delete(done));
          running.add(done);
          continue;
        }
        if (options.untilEmpty && running.size === 0) break;
      }
      const woken = new Promise<void>((resolve) => {
        wake = resolve;
      });
      await Promise.race([...running, sleep(POLL_MS), woken]);
    }
    watcher?.close();
    await Promise.all(running);
  }

  private async run(job: LocalRecord, worker: string, options: WorkOptions): Promise<void> {
    const cancel = new AbortController();
    const watch = setInterval(() => {
      void this.read(job.id).then((record) => {
        if (record?.cancelRequested) cancel.abort();
      });
    }, CANCEL_POLL_MS);
    let outcome: JobOutcome;
    const attempt = job.attempts;
    // One update after the other, all written before the outcome is.
    let spending: Promise<unknown> = Promise.resolve();
    const spent = (spend: Partial<JobTry>) => {
      spending = spending.then(() =>
        this.update(job.id, (r) => {
          const current = r.tries?.find((t) => t.attempt === attempt);
          if (current) Object.assign(current, spend);
        }),
      );
    };
    try {
      outcome = await options.execute({
        spec: job.spec,
        signal: cancel.signal,
        worker,
        submittedAt: job.submittedAt,
        log: () => undefined,
        stage: (stage) => void this.update(job.id, (r) => (r.stage = stage)),
        spent,
      });
    } catch (error) {
      const stage = error instanceof JobInfrastructureError ? error.stage : 'run';
      outcome = { status: 'failed', failure: { stage, message: (error as Error).message }, worker };
    } finally {
      clearInterval(watch);
    }
    await spending;
    await this.update(job.id, (record) => {
      const counted = withEveryTry(outcome, record.tries ?? [], attempt);
      record.tries = counted.tries;
      record.status = outcome.status;
      record.outcome = counted;
      record.stage = undefined;
      record.runner = undefined;
      record.cancelRequested = undefined;
      record.finishedAt = outcome.finishedAt ?? new Date().toISOString();
    });
  }

  async close(): Promise<void> {}
}

function watchFolder(dir: string, changed: () => void): FSWatcher | undefined {
  try {
    return watch(dir, changed).on('error', () => undefined);
  } catch {
    return undefined;
  }
}

function toView(record: LocalRecord): JobView {
  const { seq: _seq, runner: _runner, tries: _tries, stage, ...view } = record;
  return record.status === 'running' && stage ? { ...view, stage } : view;
}
