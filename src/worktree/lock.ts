import { withFileLock } from '../util/file_lock.js';
import { WorktreeError } from './errors.js';

/**
 * Runs `work` holding the worktree lock file at `path`, so processes (not only calls of this
 * one) take turns; a lock whose owner is gone is taken over (see `withFileLock`).
 */
export function withLock<T>(path: string, work: () => Promise<T>): Promise<T> {
  return withFileLock(path, work, {
    busy: (pid) =>
      new WorktreeError(
        `another process (pid ${pid ?? 'unknown'}) holds the worktree lock ${path}; try again once it is done`,
      ),
  });
}
