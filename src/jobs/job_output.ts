import * as fs from 'node:fs/promises';
import { join } from 'node:path';
import { type GitRun, runGit } from '../util/safe_git.js';
import { gitFailure } from '../worktree/git.js';
import { JobInfrastructureError } from './errors.js';
import type { JobSpec } from './job_spec.js';
import type { JobOutput } from './types.js';

const GIT_TIMEOUT_MS = 120_000;
/** Commits are lathe's own; the user's identity and signing play no part. */
const IDENTITY = ['-c', 'user.name=lathe', '-c', 'user.email=lathe@localhost', '-c', 'commit.gpgsign=false'];

/**
 * A git call that reads the work tree (staging runs `clean` filters): the filter drivers the
 * configuration names are looked up and turned off by the same process, since the run may have
 * written that configuration.
 */
const worktreeGit = (cwd: string, args: string[]): Promise<GitRun> =>
  runGit(args, { cwd, timeoutMs: GIT_TIMEOUT_MS });

/** A git call on objects and refs alone (commit-tree, branch, a diff of two trees): no filter can run. */
const objectGit = (cwd: string, args: string[]): Promise<GitRun> =>
  runGit(args, { cwd, timeoutMs: GIT_TIMEOUT_MS, filterDrivers: [] });

async function gitOk(run: Promise<GitRun>, what: string): Promise<string> {
  const done = await run;
  if (done.status !== 0) throw new JobInfrastructureError('output', `${what}: ${gitFailure(done)}`);
  return done.stdout.trim();
}

/** The branch of a job's output: `lathe/job-<id>`, or `lathe/job-<id>-partial` for a run a budget stopped. */
export function jobBranch(id: string, partial: boolean): string {
  return `lathe/job-${id}${partial ? '-partial' : ''}`;
}

/**
 * Makes the job's output from what changed in the worktree since `base` (the included files
 * left out): a commit on `lathe/job-<id>[-partial]` in the mirror, pushed when asked, or a patch
 * file in the job's files. No change is no output. The commit is made from the staged tree
 * (write-tree, commit-tree): no hook can run, and the tree's id says whether anything changed.
 */
export async function makeOutput(options: {
  spec: JobSpec;
  dir: string;
  mirror: string;
  base: { commit: string; tree: string };
  included: readonly string[];
  partial: boolean;
  filesDir: string;
  summary: string;
}): Promise<JobOutput> {
  const { spec, dir, base } = options;
  await gitOk(worktreeGit(dir, ['add', '--all', '--', '.']), 'cannot stage the changes');
  if (options.included.length > 0)
    await gitOk(
      worktreeGit(dir, ['reset', '--quiet', '--', ...options.included]),
      'cannot leave the included files out',
    );
  // write-tree refreshes stat-dirty index entries, which runs `clean` filters.
  const tree = await gitOk(worktreeGit(dir, ['write-tree']), 'cannot record the changes');
  if (tree === base.tree) return { kind: 'none', reason: 'the run changed no file' };
  if (spec.output === 'patch') {
    const patch = await objectGit(dir, ['diff', '--binary', base.commit, tree]);
    if (patch.status !== 0)
      throw new JobInfrastructureError('output', `cannot make the patch: ${gitFailure(patch)}`);
    const path = join(options.filesDir, options.partial ? 'partial.patch' : 'output.patch');
    await fs.writeFile(path, patch.stdout);
    return { kind: 'patch', path };
  }
  const message =
    `${options.partial ? 'Partial work of' : 'Work of'} job ${spec.id}\n\n${options.summary}`.trim();
  const commit = await gitOk(
    objectGit(dir, [...IDENTITY, 'commit-tree', tree, '-p', base.commit, '-m', message]),
    'cannot commit the changes',
  );
  const branch = jobBranch(spec.id, options.partial);
  await gitOk(
    objectGit(options.mirror, ['branch', '--force', branch, commit]),
    `cannot make branch ${branch}`,
  );
  const output: JobOutput = { kind: 'branch', branch, repository: options.mirror, commit };
  if (spec.push) {
    await gitOk(
      objectGit(options.mirror, [
        'push',
        '--quiet',
        '--force',
        '--',
        spec.repo,
        `refs/heads/${branch}:refs/heads/${branch}`,
      ]),
      `cannot push ${branch} to ${spec.repo}`,
    );
    output.pushedTo = spec.repo;
  }
  return output;
}
