import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isProcessAlive, type ProcessIdentity, processIdentity } from './process_identity.js';

/** How long to wait for another process's work before giving up, by default. */
const WAIT_LIMIT_MS = 120_000;

/** The lock file's text; empty when there is none. */
function lockText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** Who holds the lock at `path`: its identity, or a bare pid (locks written before identities). */
export function lockOwner(path: string): ProcessIdentity | undefined {
  try {
    const owner = JSON.parse(lockText(path)) as ProcessIdentity | number;
    if (typeof owner === 'number') return Number.isInteger(owner) && owner > 0 ? { pid: owner } : undefined;
    return Number.isInteger(owner.pid) ? owner : undefined;
  } catch {
    return undefined;
  }
}

export interface FileLockOptions {
  /** The error thrown when another live process holds the lock longer than `waitLimitMs`. */
  busy(ownerPid: number | undefined): Error;
  waitLimitMs?: number;
  /** Where the owner is written before it is linked in as the lock (default: beside it, `<lock>.<hex>.tmp`). */
  tempPath?: string;
}

/**
 * Takes the lock file at `path` and returns the function that leaves it: created exclusively,
 * holding its owner's pid and start time, so processes (not only calls of this one) take turns.
 * A lock whose owner is gone (killed with the lock held) is taken over; a pid reused by a new
 * process does not keep it. Taking and leaving the lock are a few small synchronous calls: in a
 * busy process, a lock taken with asynchronous ones waited a turn of the event loop for each (the
 * prompt's checkpoint was still taking its lock when the model's answer came back).
 */
export async function takeFileLock(path: string, options: FileLockOptions): Promise<() => void> {
  mkdirSync(dirname(path), { recursive: true });
  const me = JSON.stringify(processIdentity());
  const started = Date.now();
  const limit = options.waitLimitMs ?? WAIT_LIMIT_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      // Written whole before it is linked in: a reader never sees an empty lock.
      const temp = options.tempPath ?? `${path}.${randomBytes(6).toString('hex')}.tmp`;
      writeFileSync(temp, me, { mode: 0o600 });
      try {
        linkSync(temp, path);
      } finally {
        rmSync(temp, { force: true });
      }
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = lockOwner(path);
    if (owner && !isProcessAlive(owner)) {
      // Re-read right before removing, so a lock just taken by a live process is left alone.
      if (JSON.stringify(lockOwner(path)) === JSON.stringify(owner)) rmSync(path, { force: true });
      continue;
    }
    if (Date.now() - started > limit) throw options.busy(owner?.pid);
    await sleep(Math.min(2 + attempt * 2, 50));
  }
}

/** Runs `work` holding the lock file at `path` (see `takeFileLock`). */
export async function withFileLock<T>(
  path: string,
  work: () => Promise<T>,
  options: FileLockOptions,
): Promise<T> {
  const release = await takeFileLock(path, options);
  try {
    return await work();
  } finally {
    release();
  }
}
