import { existsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import { dirname } from 'node:path';
import { type GitRun, runGit } from '../util/safe_git.js';
import { gitFailure } from '../worktree/git.js';
import { withLock } from '../worktree/lock.js';
import { JobInfrastructureError } from './errors.js';
import { jobBranch } from './job_output.js';
import { mirrorDir } from './paths.js';

/** Clones and fetches may be slow (a large repository over the network); a hang must still end. */
const NETWORK_TIMEOUT_MS = 15 * 60_000;

// A bare mirror has no work tree: clone, fetch and rev-parse never run a filter driver, so none
// is looked up (that would be two more processes a call).
const git = (cwd: string, args: string[]): Promise<GitRun> =>
  runGit(args, { cwd, timeoutMs: NETWORK_TIMEOUT_MS, filterDrivers: [] });

/** Beside the mirror: when its last fetch began, so a job submitted before then needs none. */
const stampPath = (dir: string) => `${dir}.fetched`;

async function fetchedAt(dir: string): Promise<number | undefined> {
  const text = await fs.readFile(stampPath(dir), 'utf8').catch(() => undefined);
  const at = text === undefined ? Number.NaN : Date.parse(text.trim());
  return Number.isNaN(at) ? undefined : at;
}

/**
 * The bare mirror of `repo` in the cache, cloned the first time (`git clone --mirror`) and
 * fetched after, under a lock shared by every worker of this machine. A mirror whose last fetch
 * began after `freshSince` (the job's submission) already holds everything the job may name:
 * jobs of one batch on one repository share a fetch instead of making one each. Fetching never
 * prunes, so the job branches made in the mirror stay. A clone or fetch that fails is an
 * infrastructure failure: a queue with retries tries again.
 */
export async function updateMirror(
  documentsRoot: string,
  repo: string,
  freshSince?: string,
): Promise<string> {
  const dir = mirrorDir(documentsRoot, repo);
  const since = freshSince === undefined ? Number.NaN : Date.parse(freshSince);
  await fs.mkdir(dirname(dir), { recursive: true });
  await withLock(`${dir}.lock`, async () => {
    const began = new Date().toISOString();
    if (existsSync(dir)) {
      const last = await fetchedAt(dir);
      if (last !== undefined && last > since) return;
      const fetched = await git(dir, ['fetch', '--quiet', 'origin']);
      if (fetched.status !== 0)
        throw new JobInfrastructureError('clone', `cannot fetch ${repo}: ${gitFailure(fetched)}`);
    } else {
      const temp = `${dir}.${process.pid}.tmp`;
      await fs.rm(temp, { recursive: true, force: true });
      const cloned = await git(dirname(dir), ['clone', '--quiet', '--mirror', '--', repo, temp]);
      if (cloned.status !== 0) {
        await fs.rm(temp, { recursive: true, force: true });
        throw new JobInfrastructureError('clone', `cannot clone ${repo}: ${gitFailure(cloned)}`);
      }
      await fs.rename(temp, dir);
    }
    await fs.writeFile(stampPath(dir), began);
  });
  return dir;
}

/** A commit and its tree. */
export interface ResolvedRef {
  commit: string;
  tree: string;
}

/** The commit `ref` names in the mirror and its tree, or undefined when it names none. */
export async function resolveRef(mirror: string, ref: string): Promise<ResolvedRef | undefined> {
  if (ref.startsWith('-')) return undefined;
  const run = await git(mirror, ['rev-parse', `${ref}^{commit}`, `${ref}^{tree}`]);
  const [commit, tree] = run.stdout.trim().split('\n');
  return run.status === 0 && commit && tree ? { commit, tree } : undefined;
}

/** The commit of the job's output branch in the mirror (made here, or fetched from the repository), if there is one. */
export async function finishedBranch(mirror: string, jobId: string): Promise<string | undefined> {
  const branch = `refs/heads/${jobBranch(jobId, false)}`;
  const run = await git(mirror, ['rev-parse', '--verify', '--quiet', `${branch}^{commit}`]);
  return run.status === 0 ? run.stdout.trim() : undefined;
}
