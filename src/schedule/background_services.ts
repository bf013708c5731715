import type { BackgroundTask } from '../tool/context/tasks.js';
import { type ScheduledPromptHandler, ScheduleHost } from './schedule_host.js';

export interface BackgroundServicesOptions {
  documentsRoot: string;
  workspace: string;
  env: NodeJS.ProcessEnv;
  features: ReadonlySet<string>;
  /** The lathe command the headless runs of schedules and triggers use. */
  latheBin?: string;
}

/**
 * The runtime's background work: the task table of the task_* tools and the schedule services,
 * which are made only when first needed, so start-up pays nothing when the features are off.
 */
export class BackgroundServices {
  readonly tasks = new Map<string, BackgroundTask>();
  private host?: ScheduleHost;

  constructor(private readonly options: BackgroundServicesOptions) {}

  /** The schedule services, made on first use (the cron_* and remote_trigger tools call this). */
  readonly schedules = (): ScheduleHost => {
    this.host ??= new ScheduleHost({
      documentsRoot: this.options.documentsRoot,
      workspace: this.options.workspace,
      // Runs started from here need a usable environment whatever the runtime was given.
      env: { ...process.env, ...this.options.env },
      latheBin: this.options.latheBin,
    });
    return this.host;
  };

  /**
   * Installs the client's handler of scheduled prompts and starts what the features switch on:
   * the cron scheduler (`triggers`) and the remote-trigger endpoint (`remote_triggers`). Returns
   * a function that removes the handler; due prompts then start headless runs again.
   */
  onScheduledPrompt(handler: ScheduledPromptHandler): () => void {
    const host = this.schedules();
    host.setHandler(handler);
    const report = (error: unknown) => handler({ kind: 'notice', message: (error as Error).message });
    if (this.options.features.has('triggers')) host.startScheduler().catch(report);
    if (this.options.features.has('remote_triggers'))
      host
        .startEndpoint()
        .then((state) => {
          if (!state.listening) handler({ kind: 'notice', message: `remote triggers: ${state.reason}` });
        })
        .catch(report);
    return () => host.removeHandler(handler);
  }

  /** Ends every task process, the scheduler, the endpoint and the runs they started. */
  async dispose(): Promise<void> {
    const running = [...this.tasks.values()].filter((t) => t.status === 'running' && t.kill);
    for (const task of running) {
      task.status = 'stopped';
      task.kill?.();
    }
    await Promise.all([...running.map((t) => t.done), this.host?.dispose()]);
  }
}
