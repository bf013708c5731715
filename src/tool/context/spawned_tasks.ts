/** One independent task to start (spawn_task): its own `lathe -p` process and session. */
export interface SpawnRequest {
  prompt: string;
  /** The folder it works in (the workspace, or a worktree made for it). */
  cwd: string;
  /** The model the starting agent uses, so the task runs on the same one. */
  model?: string;
  /** Where its output goes (the task table's output file). */
  outputPath: string;
}

/** A started task's process. */
export interface SpawnedRun {
  sessionId: string;
  pid: number | undefined;
  /** Settles when the process has exited. */
  done: Promise<{ exitCode: number | null; signal: NodeJS.Signals | null }>;
  /** Ends its whole process group. */
  kill(): void;
}

/** What spawn_task needs of the runtime. */
export interface TaskSpawner {
  /** The run's own flags (`--yolo`, `--approve subagents`) approve spawned tasks without asking. */
  readonly preApproved: boolean;
  /** Starts the task; throws an Error saying why it cannot (no lathe command to start). */
  start(request: SpawnRequest): SpawnedRun;
}
