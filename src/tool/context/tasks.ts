export type TaskStatus = 'pending' | 'running' | 'completed' | 'failed' | 'stopped';

/** A task of task_create, kept per runtime: tracked work, run by a process when it has a command. */
export interface BackgroundTask {
  id: string;
  subject: string;
  description?: string;
  command?: string;
  status: TaskStatus;
  createdAt: number;
  endedAt?: number;
  exitCode?: number | null;
  signal?: NodeJS.Signals | null;
  outputPath?: string;
  /** Bytes of output task_output has returned so far ("new since last read" starts here). */
  readOffset: number;
  /** The size its saved output was cut at, when it printed more (it was stopped there). */
  outputCutAt?: number;
  /** Settles when the process ends (process tasks only). */
  done?: Promise<void>;
  /** Ends the process tree (process tasks only). */
  kill?(): void;
}
