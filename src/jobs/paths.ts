import { createHash } from 'node:crypto';
import { join } from 'node:path';

/** `$LATHE_HOME/jobs/`: the local queue, the mirror cache, the job worktrees and each job's files. */
export function jobsRoot(documentsRoot: string): string {
  return join(documentsRoot, 'jobs');
}

/** The local queue's records and lock. */
export function localQueueDir(documentsRoot: string): string {
  return join(jobsRoot(documentsRoot), 'queue');
}

/** A job's files on the machine that ran it: job.log, run.jsonl, stderr.log, session.jsonl, patches. */
export function jobFilesDir(documentsRoot: string, id: string): string {
  return join(jobsRoot(documentsRoot), 'runs', id);
}

/** The bare mirror of one repository (`git clone --mirror`), named by a hash of its address. */
export function mirrorDir(documentsRoot: string, repo: string): string {
  const slug =
    repo
      .replace(/\.git$/, '')
      .split(/[/:]/)
      .filter(Boolean)
      .at(-1)
      ?.replace(/[^\w.-]/g, '_') ?? 'repo';
  const hash = createHash('sha256').update(repo).digest('hex').slice(0, 12);
  return join(jobsRoot(documentsRoot), 'mirrors', `${slug}-${hash}.git`);
}

/** Where job worktrees are made; each has a record `<folder>.json` beside it. */
export function jobWorktreesDir(documentsRoot: string): string {
  return join(jobsRoot(documentsRoot), 'worktrees');
}
