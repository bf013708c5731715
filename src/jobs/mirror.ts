import { existsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import { dirname } from 'node:path';
import { type GitRun, runGit } from '../util/safe_git.js';
import { gitFailure } from '../worktree/git.js';
import { withLock } from '../worktree/lock.js';
import { JobInfrastructureError } from './errors.js';
import { mirrorDir } from './paths.js';

/** Clones and fetches may be slow (a large repository over the network); a hang must still end. */
const NETWORK_TIMEOUT_MS = 15 * 60_000;

const git = (cwd: string, args: string[]): Promise<GitRun> =>
  runGit(args, { cwd, timeoutMs: NETWORK_TIMEOUT_MS, filterDrivers: [] });

/**
 * The bare mirror of `repo` in the cache, cloned the first time (`git clone --mirror`) and
 * fetched each time after, under a lock shared by every worker of this machine. Fetching never
 * prunes, so the job branches made in the mirror stay. A clone or fetch that fails is an
 * infrastructure failure: a queue with retries tries again.
 */
export async function updateMirror(documentsRoot: string, repo: string): Promise<string> {
  const dir = mirrorDir(documentsRoot, repo);
  await fs.mkdir(dirname(dir), { recursive: true });
  await withLock(`${dir}.lock`, async () => {
    if (existsSync(dir)) {
      const fetched = await git(dir, ['fetch', '--quiet', 'origin']);
      if (fetched.status !== 0)
        throw new JobInfrastructureError('clone', `cannot fetch ${repo}: ${gitFailure(fetched)}`);
      return;
    }
    const temp = `${dir}.${process.pid}.tmp`;
    await fs.rm(temp, { recursive: true, force: true });
    const cloned = await git(dirname(dir), ['clone', '--quiet', '--mirror', '--', repo, temp]);
    if (cloned.status !== 0) {
      await fs.rm(temp, { recursive: true, force: true });
      throw new JobInfrastructureError('clone', `cannot clone ${repo}: ${gitFailure(cloned)}`);
    }
    await fs.rename(temp, dir);
  });
  return dir;
}

/** The commit `ref` names in the mirror, or undefined when it names none. */
export async function resolveRef(mirror: string, ref: string): Promise<string | undefined> {
  if (ref.startsWith('-')) return undefined;
  const run = await git(mirror, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  return run.status === 0 ? run.stdout.trim() : undefined;
}
