import * as fs from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { pidExists } from '../util/process_identity.js';
import { LOCK_SUFFIX, type OpenFolder, WriteRefusedError } from './open_folder.js';

/**
 * A lock on one file of an open folder: a lock file `.<name>.lathe-lock` beside it, created
 * exclusively and holding the owner's pid. It is held only for the moment between checking the
 * file's content and renaming the new content over it, so waiting is short; a lock whose owner
 * died is taken over.
 */

/** How long to wait for another writer before giving up. */
const WAIT_LIMIT_MS = 10_000;

export function lockName(name: string): string {
  return `.${name}${LOCK_SUFFIX}`;
}

/** Takes the lock on `name` in `folder`; resolves to the function that releases it. */
export async function lockFile(
  folder: OpenFolder,
  name: string,
  shown: string,
): Promise<() => Promise<void>> {
  const path = folder.entry(lockName(name));
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await fs.open(path, 'wx', 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => fs.rm(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = Number(await fs.readFile(path, 'utf8').catch(() => ''));
    // An empty file is a lock being written this instant; only a named, dead owner is stale.
    if (owner > 0 && !pidExists(owner)) {
      // Re-read right before removing, so a lock just taken by a live writer is not removed.
      const again = Number(await fs.readFile(path, 'utf8').catch(() => ''));
      if (again === owner) await fs.rm(path, { force: true });
      continue;
    }
    if (Date.now() - started > WAIT_LIMIT_MS) {
      throw new WriteRefusedError(
        `${shown} is being written by another process (pid ${owner || 'unknown'}) and stayed locked; nothing was written. Try again.`,
      );
    }
    await sleep(Math.min(2 + attempt, 25));
  }
}
