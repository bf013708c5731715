/** A prompt scheduled with cron_create, persisted under documents-root. */
export interface ScheduledPrompt {
  id: string;
  /** A cron expression: 5 fields, or 6 with seconds first. */
  schedule: string;
  prompt: string;
  recurring: boolean;
  /** Only a lathe running in this workspace fires it. */
  workspace: string;
  createdAt: string;
  lastRunAt?: string;
  /** Runs missed while no lathe ran there: reported once, never replayed. */
  missed?: { count: number; lastAt: string };
  /** Computed when listed, not stored. */
  nextRunAt?: string;
}

/** A remote trigger as listed; its token is shown once, at creation, and stored only hashed. */
export interface RemoteTriggerInfo {
  id: string;
  name?: string;
  /** Used when a request brings no prompt of its own. */
  prompt?: string;
  workspace: string;
  createdAt: string;
  lastFiredAt?: string;
  url: string;
}

/** What the schedule tools (cron_*, remote_trigger) need of the runtime's scheduled prompts and remote triggers. */
export interface ScheduleAccess {
  createCron(spec: { schedule: string; prompt: string; recurring: boolean }): Promise<ScheduledPrompt>;
  deleteCron(id: string): Promise<ScheduledPrompt | undefined>;
  listCron(): Promise<ScheduledPrompt[]>;
  createTrigger(spec: {
    name?: string;
    prompt?: string;
  }): Promise<{ trigger: RemoteTriggerInfo; token: string }>;
  /** The triggers and where the endpoint listens (or why it does not). */
  listTriggers(): Promise<{ triggers: RemoteTriggerInfo[]; endpoint: string }>;
  revokeTrigger(id: string): Promise<RemoteTriggerInfo | undefined>;
  /** Notices no client has shown yet (missed runs, errors); each is returned once. */
  takeNotices(): string[];
}
