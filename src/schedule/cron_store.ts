import { randomBytes } from 'node:crypto';
import type { ScheduledPrompt } from '../tool/context/schedules.js';
import { JsonListStore } from './json_list_store.js';
import { cronStorePath } from './paths.js';

export type StoredPrompt = Omit<ScheduledPrompt, 'nextRunAt'>;

/** The scheduled prompts of every workspace: `<documents-root>/schedules/cron.json`. */
export class CronStore {
  private readonly file: JsonListStore<StoredPrompt>;

  constructor(documentsRoot: string) {
    this.file = new JsonListStore<StoredPrompt>(cronStorePath(documentsRoot), 'jobs');
  }

  get path(): string {
    return this.file.path;
  }

  list(): Promise<StoredPrompt[]> {
    return this.file.read();
  }

  add(spec: Pick<StoredPrompt, 'schedule' | 'prompt' | 'recurring' | 'workspace'>): Promise<StoredPrompt> {
    const job: StoredPrompt = {
      id: `cron_${randomBytes(4).toString('hex')}`,
      ...spec,
      createdAt: new Date().toISOString(),
    };
    return this.file.update((jobs) => ({ items: [...jobs, job], result: job }));
  }

  remove(id: string): Promise<StoredPrompt | undefined> {
    return this.file.update((jobs) => ({
      items: jobs.filter((j) => j.id !== id),
      result: jobs.find((j) => j.id === id),
    }));
  }

  /** Changes one job; `undefined` from `change` removes it. Returns the job as it was. */
  change(
    id: string,
    change: (job: StoredPrompt) => StoredPrompt | undefined,
  ): Promise<StoredPrompt | undefined> {
    return this.file.update((jobs) => {
      const job = jobs.find((j) => j.id === id);
      if (!job) return { items: jobs, result: undefined };
      const next = change(job);
      const items = next ? jobs.map((j) => (j.id === id ? next : j)) : jobs.filter((j) => j.id !== id);
      return { items, result: job };
    });
  }
}
