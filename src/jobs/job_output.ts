import * as fs from 'node:fs/promises';
import { join } from 'node:path';
import { type GitRun, runGit } from '../util/safe_git.js';
import { gitFailure } from '../worktree/git.js';
import { JobInfrastructureError } from './errors.js';
import type { JobSpec } from './job_spec.js';
import type { JobOutput } from './types.js';

const GIT_TIMEOUT_MS = 120_000;
/** Commits are lathe's own; the repository's hooks and the user's identity play no part. */
const IDENTITY = ['-c', 'user.name=lathe', '-c', 'user.email=lathe@localhost', '-c', 'commit.gpgsign=false'];

const git = (cwd: string, args: string[]): Promise<GitRun> =>
  runGit(args, { cwd, timeoutMs: GIT_TIMEOUT_MS, filterDrivers: [] });

async function gitOk(cwd: string, args: string[], what: string): Promise<string> {
  const run = await git(cwd, args);
  if (run.status !== 0) throw new JobInfrastructureError('output', `${what}: ${gitFailure(run)}`);
  return run.stdout.trim();
}

/** The branch of a job's output: `lathe/job-<id>`, or `lathe/job-<id>-partial` for a run a budget stopped. */
export function jobBranch(id: string, partial: boolean): string {
  return `lathe/job-${id}${partial ? '-partial' : ''}`;
}

/**
 * Makes the job's output from what changed in the worktree since `baseSha` (the included files
 * left out): a commit on `lathe/job-<id>[-partial]` in the mirror, pushed when asked, or a patch
 * file in the job's files. No change is no output.
 */
export async function makeOutput(options: {
  spec: JobSpec;
  dir: string;
  mirror: string;
  baseSha: string;
  included: readonly string[];
  partial: boolean;
  filesDir: string;
  summary: string;
}): Promise<JobOutput> {
  const { spec, dir, baseSha } = options;
  await gitOk(dir, ['add', '--all', '--', '.'], 'cannot stage the changes');
  if (options.included.length > 0)
    await gitOk(dir, ['reset', '--quiet', '--', ...options.included], 'cannot leave the included files out');
  const changed = await git(dir, ['diff', '--cached', '--quiet', baseSha]);
  if (changed.status === 0) return { kind: 'none', reason: 'the run changed no file' };
  if (spec.output === 'patch') {
    const patch = await git(dir, ['diff', '--cached', '--binary', baseSha]);
    if (patch.status !== 0)
      throw new JobInfrastructureError('output', `cannot make the patch: ${gitFailure(patch)}`);
    const path = join(options.filesDir, options.partial ? 'partial.patch' : 'output.patch');
    await fs.writeFile(path, patch.stdout);
    return { kind: 'patch', path };
  }
  const message =
    `${options.partial ? 'Partial work of' : 'Work of'} job ${spec.id}\n\n${options.summary}`.trim();
  await gitOk(
    dir,
    [...IDENTITY, 'commit', '--quiet', '--no-verify', '-m', message],
    'cannot commit the changes',
  );
  const commit = await gitOk(dir, ['rev-parse', 'HEAD'], 'cannot read the commit');
  const branch = jobBranch(spec.id, options.partial);
  await gitOk(options.mirror, ['branch', '--force', branch, commit], `cannot make branch ${branch}`);
  const output: JobOutput = { kind: 'branch', branch, repository: options.mirror, commit };
  if (spec.push) {
    await gitOk(
      options.mirror,
      ['push', '--quiet', '--force', '--', spec.repo, `refs/heads/${branch}:refs/heads/${branch}`],
      `cannot push ${branch} to ${spec.repo}`,
    );
    output.pushedTo = spec.repo;
  }
  return output;
}
