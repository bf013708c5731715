import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isProcessAlive, type ProcessIdentity, processIdentity } from '../util/process_identity.js';
import { discardWorktree } from './discard.js';
import { settleWorktree } from './finish.js';
import { RepositoryGit } from './git.js';
import { withLock } from './lock.js';
import { lockPathIn, recordPathFor, worktreesRoot } from './places.js';
import { readRecord, type WorktreeRecord, writeRecord } from './record.js';

/** `alive`: its process runs; `stale`: its process is gone (a leftover); `kept`: released with keep. */
export type WorktreeState = 'alive' | 'stale' | 'kept';

export interface WorktreeListing {
  name: string;
  branch: string;
  dir: string;
  repoRoot: string;
  baseSha: string;
  owner: ProcessIdentity | null;
  state: WorktreeState;
  /** Files changed and not committed, and commits past the base; undefined when they cannot be read. */
  changes?: { files: number; commits: number };
  created: string;
}

function stateOf(record: WorktreeRecord): WorktreeState {
  if (record.owner === null) return 'kept';
  return isProcessAlive(record.owner) ? 'alive' : 'stale';
}

/** Every record under `$LATHE_HOME/worktrees`, of every repository. */
async function allRecords(documentsRoot: string): Promise<WorktreeRecord[]> {
  const root = worktreesRoot(documentsRoot);
  if (!existsSync(root)) return [];
  const records: WorktreeRecord[] = [];
  for (const repository of readdirSync(root, { withFileTypes: true })) {
    if (!repository.isDirectory()) continue;
    for (const entry of readdirSync(join(root, repository.name))) {
      if (!entry.endsWith('.json')) continue;
      const record = await readRecord(join(root, repository.name, entry));
      if (record) records.push(record);
    }
  }
  return records.sort((a, b) => a.created.localeCompare(b.created));
}

async function changesOf(record: WorktreeRecord): Promise<WorktreeListing['changes']> {
  if (!existsSync(record.dir)) return undefined;
  const git = await RepositoryGit.open(record.dir).catch(() => undefined);
  if (!git) return undefined;
  const status = await git.run(record.dir, ['status', '--porcelain=v1', '-z', '--untracked-files=normal']);
  const commits = await git.run(record.dir, ['rev-list', '--count', `${record.baseSha}..HEAD`]);
  if (status.status !== 0 || commits.status !== 0) return undefined;
  const included = new Set(record.included);
  const files = status.stdout
    .split('\0')
    .filter((line) => line.length > 3 && !included.has(line.slice(3).replace(/\/$/, ''))).length;
  return { files, commits: Number(commits.stdout.trim()) || 0 };
}

/** lathe's worktrees, oldest first, with their owners' state and their changes. */
export async function listWorktrees(options: { documentsRoot: string }): Promise<WorktreeListing[]> {
  const records = await allRecords(options.documentsRoot);
  return Promise.all(
    records.map(async (record) => ({
      name: record.name,
      branch: record.branch,
      dir: record.dir,
      repoRoot: record.repoRoot,
      baseSha: record.baseSha,
      owner: record.owner,
      state: stateOf(record),
      changes: await changesOf(record),
      created: record.created,
    })),
  );
}

/** What pruning did with one leftover. */
export interface PrunedWorktree {
  name: string;
  branch: string;
  repoRoot: string;
  /** The pid of the process that owned it (now gone). */
  ownerPid: number;
  /** `committed`: its changes are on its branch; `removed`: nothing had changed (or it was never finished being made). */
  outcome: 'removed' | 'committed';
  diffstat?: string;
  commit?: string;
}

/** A leftover that could not be pruned, and why. */
export interface PruneFailure {
  name: string;
  dir: string;
  reason: string;
}

/**
 * Prunes the worktrees whose owning process is gone: changes left in one are committed on its
 * branch (nothing is lost), then its folder is removed; one with no changes goes with its
 * branch. Each is claimed under its repository's lock first, so two processes pruning at once
 * never both take the same one. Worktrees kept with `keep` and those of live processes stay.
 */
export async function pruneWorktrees(options: {
  documentsRoot: string;
}): Promise<{ pruned: PrunedWorktree[]; failed: PruneFailure[] }> {
  const pruned: PrunedWorktree[] = [];
  const failed: PruneFailure[] = [];
  for (const found of await allRecords(options.documentsRoot)) {
    if (stateOf(found) !== 'stale') continue;
    try {
      const claimed = await claim(found);
      if (!claimed) continue;
      const ownerPid = found.owner?.pid ?? 0;
      const base = { name: found.name, branch: found.branch, repoRoot: found.repoRoot, ownerPid };
      const usable = claimed.ready && existsSync(claimed.dir) && existsSync(claimed.repoRoot);
      const git = await RepositoryGit.open(usable ? claimed.dir : dirname(claimed.dir));
      if (!usable) {
        await withLock(lockPathIn(dirname(claimed.dir)), () => discardWorktree(git, claimed));
        pruned.push({ ...base, outcome: 'removed' });
        continue;
      }
      const message = `Work left in worktree ${claimed.name} when its lathe process (pid ${ownerPid}) ended`;
      const result = await settleWorktree(git, claimed, message);
      pruned.push({ ...base, ...result, outcome: result.outcome === 'committed' ? 'committed' : 'removed' });
    } catch (error) {
      failed.push({ name: found.name, dir: found.dir, reason: (error as Error).message });
    }
  }
  return { pruned, failed };
}

/** Takes a stale record over for this process, under the lock; undefined when it is no longer stale. */
async function claim(found: WorktreeRecord): Promise<WorktreeRecord | undefined> {
  return withLock(lockPathIn(dirname(found.dir)), async () => {
    const record = await readRecord(recordPathFor(found.dir));
    if (!record || stateOf(record) !== 'stale') return undefined;
    const claimed = { ...record, owner: processIdentity() };
    await writeRecord(recordPathFor(record.dir), claimed);
    return claimed;
  });
}
