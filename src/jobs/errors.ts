/** A job file, job field or command-line value that cannot be used: the message names where and what. */
export class JobInputError extends Error {
  override name = 'JobInputError';
}

/**
 * A failure of the machinery around a job (a clone, a fetch, a worktree) rather than of the
 * job's own run: a queue with retries tries such a job again; one that ran and failed is not.
 */
export class JobInfrastructureError extends Error {
  override name = 'JobInfrastructureError';
  constructor(
    readonly stage: 'clone' | 'worktree' | 'output',
    message: string,
  ) {
    super(message);
  }
}

/** The queue's server does not answer: the command line says so in one line and exits 2. */
export class QueueUnreachableError extends Error {
  override name = 'QueueUnreachableError';
}
