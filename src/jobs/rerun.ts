import type { JobSpec } from './job_spec.js';
import type { JobStatus } from './types.js';

/** Whether a submission queues a job again that completed: only when it asks to (`--rerun`). */
export function rerunsCompleted(spec: JobSpec, status: JobStatus): boolean {
  return spec.rerun === true && status === 'completed';
}
