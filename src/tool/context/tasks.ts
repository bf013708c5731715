import type { SubagentStatus } from './agents.js';

export const TASK_STATUSES = ['pending', 'running', 'completed', 'failed', 'stopped'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

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
  /** Settles when the process (or the child agent) ends. */
  done?: Promise<void>;
  /** Ends the process tree (process tasks only), or stops the child agent. */
  kill?(): void;
  /** A background child agent (use_subagent with background: true) rather than a command. */
  kind?: 'agent';
  /** The child's type, how it ended and where its session is (child agent tasks only). */
  agent?: { type: string; status: SubagentStatus; sessionId: string; logPath: string };
}
