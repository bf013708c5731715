import { mkdir, open, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Cron } from 'croner';
import { runsBetween } from './cron_pattern.js';
import type { CronStore, StoredPrompt } from './cron_store.js';

export interface CronSchedulerOptions {
  store: CronStore;
  /** Only this workspace's jobs are fired here. */
  workspace: string;
  claimsDir: string;
  /** A run is due and this process claimed it. */
  onRun(job: StoredPrompt, at: Date): void;
  /** Runs missed while no lathe ran in the workspace: once per job per gap. */
  onMissed(job: StoredPrompt, count: number, lastAt: Date): void;
  onError(message: string): void;
  /** How often the store is checked for jobs added or removed by other lathe processes. */
  pollMs?: number;
}

const DAY_MS = 24 * 3600 * 1000;
/**
 * Runs this recent are not called missed: another lathe in the workspace may be firing them
 * right now and not have recorded it yet. Later starts still count them.
 */
const MISSED_GRACE_MS = 5_000;

/**
 * Fires the workspace's scheduled prompts with croner while lathe runs. Runs missed while it was
 * not running are counted and reported once, never replayed. Several lathe processes may run a
 * scheduler over the same store: each run is claimed by creating one file, so it fires once.
 */
export class CronScheduler {
  private readonly timers = new Map<string, { schedule: string; cron: Cron }>();
  private poll?: NodeJS.Timeout;
  private storeStamp = '';
  private started?: Promise<void>;
  private stopped = false;

  constructor(private readonly options: CronSchedulerOptions) {}

  start(): Promise<void> {
    // A start that failed (an unreadable store, say) is tried again by the next caller.
    this.started ??= this.begin().catch((error) => {
      this.started = undefined;
      throw error;
    });
    return this.started;
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.poll);
    for (const { cron } of this.timers.values()) cron.stop();
    this.timers.clear();
  }

  /** Matches the timers to the store: new jobs start, deleted or changed ones stop. */
  async sync(): Promise<void> {
    let jobs: StoredPrompt[];
    try {
      this.storeStamp = await this.stampOfStore();
      jobs = (await this.options.store.list()).filter((j) => j.workspace === this.options.workspace);
    } catch (error) {
      this.options.onError((error as Error).message);
      return;
    }
    if (this.stopped) return;
    const byId = new Map(jobs.map((j) => [j.id, j]));
    for (const [id, timer] of this.timers) {
      if (byId.get(id)?.schedule === timer.schedule) continue;
      timer.cron.stop();
      this.timers.delete(id);
    }
    for (const job of jobs) {
      if (this.timers.has(job.id)) continue;
      const cron = new Cron(
        job.schedule,
        {
          unref: true,
          maxRuns: job.recurring ? undefined : 1,
          catch: (error) => this.options.onError(`cron job ${job.id}: ${(error as Error).message}`),
        },
        (self) =>
          this.fire(job.id, self).catch((error) =>
            this.options.onError(`cron job ${job.id}: ${(error as Error).message}`),
          ),
      );
      this.timers.set(job.id, { schedule: job.schedule, cron });
    }
  }

  private async begin(): Promise<void> {
    await this.removeOldClaims();
    await this.reportMissed();
    await this.sync();
    if (this.stopped) return;
    this.poll = setInterval(() => void this.syncIfChanged(), this.options.pollMs ?? 2_000);
    this.poll.unref();
  }

  private async reportMissed(): Promise<void> {
    const { store, workspace } = this.options;
    const now = new Date();
    let jobs: StoredPrompt[];
    try {
      jobs = (await store.list()).filter((j) => j.workspace === workspace);
    } catch (error) {
      this.options.onError((error as Error).message);
      return;
    }
    for (const job of jobs) {
      // Counting starts after the last run, or after the runs already reported as missed.
      const marks = [job.createdAt, job.lastRunAt, job.missed?.lastAt].filter((m): m is string => !!m);
      const since = new Date(Math.max(...marks.map((m) => Date.parse(m))));
      const { count, last } = runsBetween(job.schedule, since, new Date(now.getTime() - MISSED_GRACE_MS));
      if (count === 0 || !last) continue;
      const missed = { count, lastAt: last.toISOString() };
      // A one-time prompt whose moment passed will never run: it goes, reported.
      await store.change(job.id, (j) => (j.recurring ? { ...j, missed } : undefined));
      this.options.onMissed({ ...job, missed }, count, last);
    }
  }

  private async fire(id: string, self: Cron): Promise<void> {
    if (this.stopped) return;
    // croner calls a few milliseconds after the scheduled second: the claim names that second.
    const at = new Date(Math.round((self.currentRun() ?? new Date()).getTime() / 1000) * 1000);
    if (!(await this.claim(id, at))) return;
    const job = await this.options.store.change(id, (j) =>
      j.recurring ? { ...j, lastRunAt: at.toISOString(), missed: undefined } : undefined,
    );
    if (!job || this.stopped) return;
    if (!job.recurring) {
      this.timers.get(id)?.cron.stop();
      this.timers.delete(id);
    }
    this.options.onRun(job, at);
  }

  private async claim(id: string, at: Date): Promise<boolean> {
    await mkdir(this.options.claimsDir, { recursive: true, mode: 0o700 });
    try {
      const handle = await open(join(this.options.claimsDir, `${id}-${at.getTime() / 1000}`), 'wx', 0o600);
      await handle.close();
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
  }

  private async removeOldClaims(): Promise<void> {
    const names = await readdir(this.options.claimsDir).catch(() => [] as string[]);
    const cutoff = Date.now() - DAY_MS;
    for (const name of names) {
      const path = join(this.options.claimsDir, name);
      const info = await stat(path).catch(() => undefined);
      if (info && info.mtimeMs < cutoff) await rm(path, { force: true });
    }
  }

  private async stampOfStore(): Promise<string> {
    const info = await stat(this.options.store.path).catch(() => undefined);
    return info ? `${info.ino}:${info.mtimeMs}:${info.size}` : 'none';
  }

  private async syncIfChanged(): Promise<void> {
    if ((await this.stampOfStore()) !== this.storeStamp) await this.sync();
  }
}
