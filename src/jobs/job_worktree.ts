import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { replaceJsonFile } from '../util/json_file.js';
import { isProcessAlive, type ProcessIdentity, processIdentity } from '../util/process_identity.js';
import { runGit } from '../util/safe_git.js';
import { gitFailure } from '../worktree/git.js';
import { withLock } from '../worktree/lock.js';
import { JobInfrastructureError } from './errors.js';
import { jobWorktreesDir } from './paths.js';

/** The record beside a job worktree: whose it is, so a later worker can tell a dead job's leftovers. */
export interface JobWorktreeRecord {
  jobId: string;
  dir: string;
  mirror: string;
  /** The worker process that made it. */
  owner: ProcessIdentity;
  /** The process group of the job's `lathe -p`, once started: ended when the worktree is pruned. */
  runGroup?: ProcessIdentity;
}

const GIT_TIMEOUT_MS = 120_000;
const recordPath = (dir: string) => `${dir}.json`;

function writeRecord(record: JobWorktreeRecord): Promise<void> {
  return replaceJsonFile(recordPath(record.dir), record);
}

/**
 * A fresh folder with `git worktree add --detach <sha>` of the mirror, under the mirror's lock
 * (several jobs of one repository start at once). The record is written first, so a worker
 * killed from here on leaves something `pruneDeadWorktrees` finds.
 */
export async function addJobWorktree(
  documentsRoot: string,
  mirror: string,
  jobId: string,
  sha: string,
): Promise<JobWorktreeRecord> {
  const root = jobWorktreesDir(documentsRoot);
  await fs.mkdir(root, { recursive: true });
  const dir = join(root, `${jobId}-${randomBytes(4).toString('hex')}`);
  const record: JobWorktreeRecord = { jobId, dir, mirror, owner: processIdentity() };
  await writeRecord(record);
  // The checkout runs `smudge` filters: the drivers the configuration names are turned off.
  const added = await withLock(`${mirror}.lock`, () =>
    runGit(['worktree', 'add', '--quiet', '--detach', dir, sha], { cwd: mirror, timeoutMs: GIT_TIMEOUT_MS }),
  );
  if (added.status !== 0) {
    await removeJobWorktree(record);
    throw new JobInfrastructureError(
      'worktree',
      `cannot make a worktree at ${sha.slice(0, 12)}: ${gitFailure(added)}`,
    );
  }
  return record;
}

/** Notes the process group of the job's run in the record. */
export function recordRunGroup(record: JobWorktreeRecord, leader: number): Promise<void> {
  record.runGroup = processIdentity(leader);
  return writeRecord(record);
}

/**
 * The worktree's administrative folder in the mirror (`<mirror>/worktrees/<name>`, git names it
 * after the worktree's unique folder), read from its `.git` file; undefined when that file is gone
 * or names any other folder (the run could rewrite it).
 */
async function adminFolder(record: JobWorktreeRecord): Promise<string | undefined> {
  const text = await fs.readFile(join(record.dir, '.git'), 'utf8').catch(() => '');
  const named = /^gitdir: (.+)$/m.exec(text)?.[1];
  if (!named) return undefined;
  const admin = await fs.realpath(named).catch(() => undefined);
  const worktrees = await fs.realpath(join(record.mirror, 'worktrees')).catch(() => undefined);
  const ours = admin && worktrees && dirname(admin) === worktrees && basename(admin) === basename(record.dir);
  return ours ? admin : undefined;
}

/**
 * Removes the worktree, its git administration in the mirror and its record; never throws. The
 * administrative folder is removed as `git worktree prune` would; only when it cannot be told
 * is git asked to prune.
 */
export async function removeJobWorktree(record: JobWorktreeRecord): Promise<void> {
  const admin = await adminFolder(record);
  await fs.rm(record.dir, { recursive: true, force: true }).catch(() => undefined);
  if (admin) await fs.rm(admin, { recursive: true, force: true }).catch(() => undefined);
  else if (existsSync(record.mirror))
    await withLock(`${record.mirror}.lock`, () =>
      runGit(['worktree', 'prune'], { cwd: record.mirror, timeoutMs: GIT_TIMEOUT_MS, filterDrivers: [] }),
    ).catch(() => undefined);
  await fs.rm(recordPath(record.dir), { force: true });
}

/**
 * Removes the worktrees of jobs whose worker is gone (killed mid-job), ending their runs'
 * process groups first. Returns the folders removed.
 */
export async function pruneDeadWorktrees(documentsRoot: string): Promise<string[]> {
  const root = jobWorktreesDir(documentsRoot);
  const names = await fs.readdir(root).catch(() => [] as string[]);
  const pruned: string[] = [];
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    let record: JobWorktreeRecord;
    try {
      record = JSON.parse(await fs.readFile(join(root, name), 'utf8')) as JobWorktreeRecord;
    } catch {
      continue;
    }
    if (!record.owner || isProcessAlive(record.owner)) continue;
    // The leader's identity is checked first: a reused pid is never signalled.
    if (record.runGroup && isProcessAlive(record.runGroup)) {
      try {
        process.kill(-record.runGroup.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await removeJobWorktree(record);
    pruned.push(record.dir);
  }
  return pruned;
}
