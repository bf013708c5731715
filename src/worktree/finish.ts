import { existsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import { dirname } from 'node:path';
import { discardWorktree } from './discard.js';
import { WorktreeError } from './errors.js';
import { RepositoryGit } from './git.js';
import { withLock } from './lock.js';
import { lockPathIn, recordPathFor } from './places.js';
import { readRecord, type WorktreeRecord, writeRecord } from './record.js';
import type { FinishOptions, FinishResult, Worktree } from './types.js';

/** Who commits when git knows no one here: the commit must not fail for want of an identity. */
const FALLBACK_IDENTITY = {
  GIT_AUTHOR_NAME: 'lathe',
  GIT_AUTHOR_EMAIL: 'lathe@localhost',
  GIT_COMMITTER_NAME: 'lathe',
  GIT_COMMITTER_EMAIL: 'lathe@localhost',
};

/**
 * Ends the work in a worktree. Without changes (none uncommitted, no commit past its base) the
 * folder and the branch are removed. With changes they are committed on the branch (`git add
 * -A`, the copied-in files left out), the folder is removed and the branch kept; the result
 * carries the diffstat. With `keep`, folder and uncommitted changes stay as they are.
 */
export async function finishWorktree(worktree: Worktree, options: FinishOptions = {}): Promise<FinishResult> {
  const record = await readRecord(recordPathFor(worktree.dir));
  if (!record) throw new WorktreeError(`${worktree.dir} is no worktree lathe knows (its record is gone)`);
  if (!existsSync(record.dir)) throw new WorktreeError(`the worktree folder ${record.dir} is gone`);
  const git = await RepositoryGit.open(record.dir);
  if (options.keep) {
    const diffstat = await git.output(
      record.dir,
      ['diff', '--stat', record.baseSha],
      'cannot read the changes',
    );
    // Released: no process owns it now, and a kept worktree is never pruned as a leftover.
    await writeRecord(recordPathFor(record.dir), { ...record, owner: null });
    return { outcome: 'kept', ...(diffstat ? { diffstat } : {}) };
  }
  return settleWorktree(git, record, options.message ?? `Work done in worktree ${record.name}`);
}

/** Commits what changed (if anything) and removes the folder; the branch stays when it holds work. */
export async function settleWorktree(
  git: RepositoryGit,
  record: WorktreeRecord,
  message: string,
): Promise<FinishResult> {
  const { dir } = record;
  // The work belongs on the worktree's own branch: never commit onto another one checked out there.
  const on = await git.run(dir, ['symbolic-ref', '--quiet', 'HEAD']);
  if (on.stdout.trim() !== `refs/heads/${record.branch}`) {
    const where =
      on.status === 0 ? `on ${on.stdout.trim().replace(/^refs\/heads\//, '')}` : 'on a detached HEAD';
    throw new WorktreeError(
      `worktree ${record.name} is ${where}, not ${record.branch}: switch back (git switch ${record.branch}) or leave it with keep`,
    );
  }
  await commitChanges(git, record, message);
  const head = await git.output(dir, ['rev-parse', 'HEAD'], `cannot read the worktree's HEAD`);
  const lock = lockPathIn(dirname(dir));
  if (head === record.baseSha) {
    await withLock(lock, () => discardWorktree(git, record));
    return { outcome: 'removed' };
  }
  const diffstat = await git.output(
    dir,
    ['diff', '--stat', record.baseSha, head],
    'cannot read the diffstat',
  );
  await withLock(lock, async () => {
    const removed = await git.run(record.repoRoot, ['worktree', 'remove', '--force', dir]);
    if (removed.status !== 0 && existsSync(dir)) await fs.rm(dir, { recursive: true, force: true });
    await fs.rm(recordPathFor(dir), { force: true });
  });
  return { outcome: 'committed', commit: head, ...(diffstat ? { diffstat } : {}) };
}

/** `git add -A` and `git commit` in the worktree, the files copied in left out; nothing to commit is fine. */
async function commitChanges(git: RepositoryGit, record: WorktreeRecord, message: string): Promise<void> {
  const { dir } = record;
  // Ignored copies stay out by themselves (and git refuses a pathspec naming one): exclude the rest.
  const literal = record.included.map((path) => `:(literal)${path}`);
  const untracked = record.included.length
    ? await git.output(
        dir,
        ['ls-files', '-z', '--others', '--exclude-standard', '--', ...literal],
        'cannot list the copies',
      )
    : '';
  const excluded = untracked
    .split('\0')
    .filter(Boolean)
    .map((path) => `:(exclude,literal)${path}`);
  await git.output(dir, ['add', '-A', '--', '.', ...excluded], 'cannot stage the changes');
  const staged = await git.run(dir, ['diff', '--cached', '--quiet']);
  if (staged.status === 0) return;
  // Author and committer come from the same settings: one known is both known.
  const known = await git.run(dir, ['var', 'GIT_COMMITTER_IDENT']);
  const env = known.status === 0 ? undefined : { ...process.env, ...FALLBACK_IDENTITY };
  await git.output(
    dir,
    ['commit', '--quiet', '--no-verify', '--no-gpg-sign', '-m', message],
    'cannot commit the changes',
    env,
  );
}
