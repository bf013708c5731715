import type { JobSpec } from './job_spec.js';

/** Where a job is: waiting, running, or how it ended. */
export type JobStatus = 'queued' | 'running' | 'completed' | 'failed' | 'budget_exhausted' | 'cancelled';

/** The step a failed job failed at. */
export type FailureStage = 'clone' | 'ref' | 'worktree' | 'setup' | 'run' | 'output';

export interface JobUsage {
  inputTokens: number;
  outputTokens: number;
}

/** What one try of a job spent so far, as its run reports it. */
export interface TrySpend {
  usage: JobUsage;
  /** Dollars at the model's known prices; null when they are not known. */
  costUsd: number | null;
  turns?: number;
}

/**
 * One try of a job: the worker that took it, when, what it spent and how it ended. A try whose
 * worker died before it ended is `lost`: its spend is what its run had reported until then.
 */
export interface JobTry extends TrySpend {
  attempt: number;
  worker: string;
  startedAt: string;
  ended?: JobOutcome['status'] | 'lost';
}

/** What a job's output became: a branch in the mirror (pushed or not) or a patch file. */
export type JobOutput =
  | { kind: 'branch'; branch: string; repository: string; commit: string; pushedTo?: string }
  | { kind: 'patch'; path: string }
  | { kind: 'none'; reason: string };

/** Everything collected when a job ended. */
export interface JobOutcome {
  status: Exclude<JobStatus, 'queued' | 'running'>;
  failure?: { stage: FailureStage; message: string };
  /** Which budget ran out, for `budget_exhausted`. */
  budgetExhausted?: string;
  /** The run's final text (or its error). */
  text?: string;
  /** The `subtype` of `lathe -p`'s result, when it wrote one. */
  subtype?: string;
  /** Model requests, usage and cost: over every try (a worker that died mid-job counts too). */
  turns?: number;
  usage?: JobUsage;
  costUsd?: number | null;
  /** Every try of the job, this one last, each with its own spend. */
  tries?: JobTry[];
  output?: JobOutput;
  baseSha?: string;
  sessionId?: string;
  /** The files of the run on the worker's machine: job log, stream-json, session log. */
  files?: string;
  worker?: string;
  startedAt?: string;
  finishedAt?: string;
}

/** A job as `lathe jobs list|show` shows it. */
export interface JobView {
  id: string;
  spec: JobSpec;
  batch?: string;
  status: JobStatus;
  /** The step a running job is at (mirror, worktree, setup, run, output). */
  stage?: string;
  worker?: string;
  attempts: number;
  submittedAt: string;
  startedAt?: string;
  finishedAt?: string;
  outcome?: JobOutcome;
  /** Cancellation was asked for and has not reached the job yet. */
  cancelRequested?: boolean;
}

/** How a submission went: the ids queued, and those skipped because they are queued, running or done. */
export interface SubmitResult {
  submitted: string[];
  skipped: Array<{ id: string; status: JobStatus }>;
}

/** What a queue hands a worker for one job. */
export interface JobContext {
  spec: JobSpec;
  /** Aborted when the job is cancelled. */
  signal: AbortSignal;
  /** A line for `lathe jobs logs ID`. */
  log(line: string): void;
  /** The step the job is at. */
  stage(name: string): void;
  /** The worker's name (`host:pid`). */
  worker: string;
  /** When the job was submitted: a mirror fetched after it is fresh enough. */
  submittedAt?: string;
  /** Told what the run has spent so far, at each of its requests: kept with this try. */
  spent?(spend: TrySpend): void;
}

/** Runs one job to its outcome; throws a JobInfrastructureError for a failure worth retrying. */
export type JobExecutor = (context: JobContext) => Promise<JobOutcome>;

export type CancelResult = 'cancelled' | 'cancelling' | 'finished' | 'unknown';

/**
 * A queue of jobs: the embedded local one (`local_queue.ts`) or BullMQ on Redis
 * (`bullmq_queue.ts`). Submitting is idempotent by job id.
 */
export interface JobQueue {
  submit(specs: readonly JobSpec[], batch?: string): Promise<SubmitResult>;
  list(): Promise<JobView[]>;
  get(id: string): Promise<JobView | undefined>;
  /** The job's log lines so far. */
  logs(id: string): Promise<string[]>;
  cancel(id: string): Promise<CancelResult>;
  /**
   * Takes jobs and runs them, `concurrency` at a time, until `signal` is aborted (or, with
   * `untilEmpty`, until no job is waiting or running).
   */
  work(options: WorkOptions): Promise<void>;
  close(): Promise<void>;
}

export interface WorkOptions {
  concurrency: number;
  execute: JobExecutor;
  signal: AbortSignal;
  untilEmpty?: boolean;
  /** Called before each job is taken: a worker prunes worktrees of dead jobs here. */
  beforeJob?: () => Promise<void>;
  /** Called once the worker takes jobs, with its name (host:pid). */
  onReady?: (worker: string) => void;
}
