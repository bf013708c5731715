export { JobInfrastructureError, JobInputError, QueueUnreachableError } from './errors.js';
export { bareSetup, type ExecutorSettings, jobExecutor } from './executor.js';
export { readJobFile } from './job_file.js';
export { type JobSpec, parseJobSpec } from './job_spec.js';
export { pruneDeadWorktrees } from './job_worktree.js';
export { LocalQueue } from './local_queue.js';
export { probeJobSandbox, sandboxedJobSetup } from './sandbox_setup.js';
export { outputText, statusText, summarize, summaryMarkdown } from './summary.js';
export type { JobQueue, JobView } from './types.js';
