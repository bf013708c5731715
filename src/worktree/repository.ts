import { realpathSync, statSync } from 'node:fs';
import { WorktreeError } from './errors.js';
import { gitFailure, RepositoryGit } from './git.js';

/** The checkout a worktree is made from. */
export interface Repository {
  /** The top folder of the checkout `repo` lies in. */
  root: string;
  /** The git folder every checkout of this repository shares (`<main>/.git`). */
  commonDir: string;
  git: RepositoryGit;
}

/** The repository `folder` belongs to; a folder outside any repository is a WorktreeError. */
export async function findRepository(folder: string): Promise<Repository> {
  let isFolder = false;
  try {
    isFolder = statSync(folder).isDirectory();
  } catch {
    // reported below
  }
  if (!isFolder) throw new WorktreeError(`${folder} is not a folder`);
  const git = await RepositoryGit.open(folder);
  const run = await git.run(folder, [
    'rev-parse',
    '--path-format=absolute',
    '--show-toplevel',
    '--git-common-dir',
  ]);
  if (run.status !== 0) {
    const why = gitFailure(run);
    if (/not a git repository/i.test(why))
      throw new WorktreeError(
        `${folder} is not in a git repository: a worktree needs one (git init, then a first commit)`,
      );
    throw new WorktreeError(`cannot read the repository of ${folder}: ${why}`);
  }
  const [root, commonDir] = run.stdout.trim().split('\n');
  if (!root || !commonDir)
    throw new WorktreeError(
      `${folder} is inside a bare repository or a .git folder: a worktree starts from a checkout`,
    );
  return { root: realpathSync(root), commonDir: realpathSync(commonDir), git };
}

/**
 * The commit a worktree starts from, as a SHA resolved now: `base` (a branch, tag or commit)
 * or HEAD, so later moves of either do not change where the worktree starts.
 */
export async function resolveBase(repo: Repository, base: string | undefined): Promise<string> {
  if (base !== undefined && (base.trim() === '' || base.startsWith('-')))
    throw new WorktreeError(`"${base}" is not a valid base: name a branch, tag or commit`);
  const wanted = base ?? 'HEAD';
  const run = await repo.git.run(repo.root, ['rev-parse', '--verify', '--quiet', `${wanted}^{commit}`]);
  if (run.status === 0) return run.stdout.trim();
  const head =
    base === undefined ? run : await repo.git.run(repo.root, ['rev-parse', '--verify', '--quiet', 'HEAD']);
  if (head.status !== 0)
    throw new WorktreeError(
      `the repository at ${repo.root} has no commit yet: a worktree starts from a commit, so commit something first`,
    );
  throw new WorktreeError(`base "${base}" names no commit in ${repo.root}: give a branch, tag or commit`);
}

/** Whether a checkout has changes git would show in `git status` (untracked files too). */
export async function hasChanges(git: RepositoryGit, dir: string): Promise<boolean> {
  const status = await git.output(
    dir,
    ['status', '--porcelain=v1', '--untracked-files=normal'],
    `cannot read the status of ${dir}`,
  );
  return status.length > 0;
}

/** Whether branch `name` exists. */
export async function branchExists(repo: Repository, branch: string): Promise<boolean> {
  const run = await repo.git.run(repo.root, ['show-ref', '--verify', '--quiet', `refs/heads/${branch}`]);
  return run.status === 0;
}
