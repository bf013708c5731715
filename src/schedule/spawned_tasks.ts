import { newSessionId } from '../session/ids.js';
import type { SpawnedRun, SpawnRequest, TaskSpawner } from '../tool/context/spawned_tasks.js';
import { startHeadlessRun } from './headless_run.js';

export interface TaskSpawnerOptions {
  documentsRoot: string;
  env: NodeJS.ProcessEnv;
  /** The lathe command; without it, tasks are refused (as scheduled runs are). */
  latheBin?: string;
  /** The starting run's own approvals, which its tasks inherit (`--yolo`, `--approve`). */
  yolo?: boolean;
  approve?: readonly string[] | 'all';
  /** The run trusts its workspace by `--trust`: so do its tasks. */
  trust?: boolean;
}

/** The flag that makes a `lathe -p` run a spawned task in a session of the given id (not in --help). */
export const SPAWNED_TASK_FLAG = '--spawned-task';

/**
 * Starts spawn_task's runs: `lathe -p` in its own process group and its own session (agent kind
 * `task`, so it cannot spawn tasks itself), on the starting agent's model and with its approval
 * flags and its `--trust`; asks with no one to answer them are denials, as in any headless run.
 */
export class HeadlessTaskSpawner implements TaskSpawner {
  readonly preApproved: boolean;

  constructor(private readonly options: TaskSpawnerOptions) {
    const { yolo, approve } = options;
    this.preApproved = yolo === true || approve === 'all' || (approve ?? []).includes('subagents');
  }

  start(request: SpawnRequest): SpawnedRun {
    const sessionId = newSessionId();
    const { yolo, approve, trust } = this.options;
    const approvals = approve === 'all' ? ['all'] : (approve ?? []);
    const args = [
      `${SPAWNED_TASK_FLAG}=${sessionId}`,
      ...(request.model ? ['--model', request.model] : []),
      ...(yolo ? ['--yolo'] : []),
      ...(trust ? ['--trust'] : []),
      ...approvals.flatMap((category) => ['--approve', category]),
    ];
    const run = startHeadlessRun({
      prompt: request.prompt,
      workspace: request.cwd,
      documentsRoot: this.options.documentsRoot,
      env: this.options.env,
      origin: `spawned task, session ${sessionId}`,
      bin: this.options.latheBin,
      args,
      logPath: request.outputPath,
    });
    return {
      sessionId,
      pid: run.pid,
      done: run.done.then(() => ({ exitCode: run.exitCode ?? null, signal: run.signal ?? null })),
      kill: () => run.kill(),
    };
  }
}
