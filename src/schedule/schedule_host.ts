import type { RemoteTriggerInfo, ScheduleAccess, ScheduledPrompt } from '../tool/context/schedules.js';
import { nextRun, scheduleProblem } from './cron_pattern.js';
import { CronStore, type StoredPrompt } from './cron_store.js';
import { type HeadlessRun, startHeadlessRun } from './headless_run.js';
import { claimsDir } from './paths.js';
import { CronScheduler } from './scheduler.js';
import { DEFAULT_TRIGGER_PORT, type EndpointState, TriggerServer } from './trigger_server.js';
import { type StoredTrigger, TriggerStore } from './trigger_store.js';

/** What a client installed with `onScheduledPrompt` is told. */
export type ScheduledPromptEvent =
  | { kind: 'prompt'; jobId: string; prompt: string; scheduledFor: Date; workspace: string }
  | { kind: 'missed'; jobId: string; prompt: string; count: number; lastMissedAt: Date; workspace: string }
  | { kind: 'notice'; message: string };

export type ScheduledPromptHandler = (event: ScheduledPromptEvent) => void;

export interface ScheduleHostOptions {
  documentsRoot: string;
  workspace: string;
  /** Passed on to headless runs; LATHE_TRIGGER_PORT picks the endpoint's port. */
  env: NodeJS.ProcessEnv;
  /** The lathe command headless runs use (the CLI passes its own); without it, runs are refused. */
  latheBin?: string;
  pollMs?: number;
}

export function describeMissed(
  job: Pick<StoredPrompt, 'id' | 'schedule'>,
  count: number,
  lastAt: Date,
): string {
  const runs = count === 1 ? '1 run' : `${count.toLocaleString('en-US')} runs`;
  return `cron job ${job.id} (${job.schedule}) missed ${runs} while lathe was not running here, the last at ${lastAt.toISOString()}; missed runs are not replayed.`;
}

/**
 * The schedule services of one runtime: the cron store and its scheduler, the trigger store and
 * its HTTP endpoint, and the headless runs they start. Due prompts go to the installed handler
 * (an interactive client queues them as user messages); with none, each starts a headless run.
 */
export class ScheduleHost implements ScheduleAccess {
  private handler?: ScheduledPromptHandler;
  private readonly notices: string[] = [];
  private readonly cronStore: CronStore;
  private readonly triggerStore: TriggerStore;
  private readonly scheduler: CronScheduler;
  private readonly server: TriggerServer;
  private readonly runs = new Set<HeadlessRun>();
  private disposed = false;

  constructor(private readonly options: ScheduleHostOptions) {
    this.cronStore = new CronStore(options.documentsRoot);
    this.triggerStore = new TriggerStore(options.documentsRoot);
    this.scheduler = new CronScheduler({
      store: this.cronStore,
      workspace: options.workspace,
      claimsDir: claimsDir(options.documentsRoot),
      pollMs: options.pollMs,
      onRun: (job, at) => this.deliverPrompt(job, at),
      onMissed: (job, count, lastAt) =>
        this.deliver(
          {
            kind: 'missed',
            jobId: job.id,
            prompt: job.prompt,
            count,
            lastMissedAt: lastAt,
            workspace: job.workspace,
          },
          describeMissed(job, count, lastAt),
        ),
      onError: (message) => this.deliver({ kind: 'notice', message }, message),
    });
    const port = Number.parseInt(options.env.LATHE_TRIGGER_PORT ?? '', 10);
    this.server = new TriggerServer({
      store: this.triggerStore,
      port: Number.isInteger(port) && port >= 0 && port < 65536 ? port : DEFAULT_TRIGGER_PORT,
      onTrigger: (trigger, prompt) => {
        const run = this.startRun(prompt, trigger.workspace, `trigger ${trigger.id}`);
        if (!run) throw new Error('lathe is shutting down');
        return run;
      },
    });
  }

  /** Installs the handler; notices kept so far go to it. */
  setHandler(handler: ScheduledPromptHandler): void {
    this.handler = handler;
    for (const message of this.notices.splice(0)) handler({ kind: 'notice', message });
  }

  /** Removes the handler, unless another has replaced it since. */
  removeHandler(handler: ScheduledPromptHandler): void {
    if (this.handler === handler) this.handler = undefined;
  }

  /** Starts firing this workspace's scheduled prompts (idempotent). */
  startScheduler(): Promise<void> {
    return this.scheduler.start();
  }

  /** Starts the endpoint (idempotent). */
  startEndpoint(): Promise<EndpointState> {
    return this.server.start();
  }

  async createCron(spec: { schedule: string; prompt: string; recurring: boolean }): Promise<ScheduledPrompt> {
    const problem = scheduleProblem(spec.schedule);
    if (problem) throw new Error(problem);
    const job = await this.cronStore.add({ ...spec, workspace: this.options.workspace });
    await this.scheduler.start();
    await this.scheduler.sync();
    return withNextRun(job);
  }

  async deleteCron(id: string): Promise<ScheduledPrompt | undefined> {
    const job = await this.cronStore.remove(id);
    await this.scheduler.start();
    await this.scheduler.sync();
    return job;
  }

  async listCron(): Promise<ScheduledPrompt[]> {
    await this.scheduler.start();
    return (await this.cronStore.list()).map(withNextRun);
  }

  async createTrigger(spec: { name?: string; prompt?: string }) {
    const endpoint = await this.server.start();
    const { trigger, token } = await this.triggerStore.add({ ...spec, workspace: this.options.workspace });
    return { trigger: triggerInfo(trigger, endpoint), token };
  }

  async listTriggers(): Promise<{ triggers: RemoteTriggerInfo[]; endpoint: string }> {
    const endpoint = await this.server.start();
    const triggers = (await this.triggerStore.list()).map((t) => triggerInfo(t, endpoint));
    const where = endpoint.listening
      ? `listening on http://127.0.0.1:${endpoint.port}`
      : `not listening here: ${endpoint.reason}`;
    return { triggers, endpoint: where };
  }

  async revokeTrigger(id: string): Promise<RemoteTriggerInfo | undefined> {
    const endpoint = await this.server.start();
    const trigger = await this.triggerStore.remove(id);
    return trigger && triggerInfo(trigger, endpoint);
  }

  takeNotices(): string[] {
    return this.notices.splice(0);
  }

  /** Stops the scheduler and the endpoint, and ends the runs they started. */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.scheduler.stop();
    await this.server.stop();
    for (const run of this.runs) run.kill();
    await Promise.all([...this.runs].map((r) => r.done));
  }

  private deliver(event: ScheduledPromptEvent, notice: string): void {
    if (this.handler) this.handler(event);
    else this.notices.push(notice);
  }

  private deliverPrompt(job: StoredPrompt, at: Date): void {
    if (this.handler) {
      this.handler({
        kind: 'prompt',
        jobId: job.id,
        prompt: job.prompt,
        scheduledFor: at,
        workspace: job.workspace,
      });
      return;
    }
    this.startRun(job.prompt, job.workspace, `cron job ${job.id}`);
  }

  private startRun(prompt: string, workspace: string, origin: string): HeadlessRun | undefined {
    if (this.disposed) return undefined;
    try {
      const run = startHeadlessRun({
        prompt,
        workspace,
        origin,
        documentsRoot: this.options.documentsRoot,
        env: this.options.env,
        bin: this.options.latheBin,
      });
      this.runs.add(run);
      void run.done.then(() => this.runs.delete(run));
      return run;
    } catch (error) {
      const message = `${origin}: ${(error as Error).message}`;
      this.deliver({ kind: 'notice', message }, message);
      return undefined;
    }
  }
}

function withNextRun(job: StoredPrompt): ScheduledPrompt {
  const next = nextRun(job.schedule);
  return next ? { ...job, nextRunAt: next.toISOString() } : { ...job };
}

function triggerInfo(trigger: StoredTrigger, endpoint: EndpointState): RemoteTriggerInfo {
  const { tokenHash: _hidden, ...info } = trigger;
  return { ...info, url: `http://127.0.0.1:${endpoint.port}/trigger/${trigger.id}` };
}
