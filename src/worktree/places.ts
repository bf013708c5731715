import { basename, dirname, join } from 'node:path';
import { projectKey } from '../config/paths.js';

/** Where lathe keeps its worktrees: `$LATHE_HOME/worktrees`, one folder per repository. */
export function worktreesRoot(documentsRoot: string): string {
  return join(documentsRoot, 'worktrees');
}

/**
 * The folder of one repository's worktrees, named after its main checkout (a readable slug and a
 * hash of the path), so every checkout of the same repository shares it, and its lock.
 */
export function repositoryFolder(documentsRoot: string, commonDir: string): string {
  const main = basename(commonDir) === '.git' ? dirname(commonDir) : commonDir;
  return join(worktreesRoot(documentsRoot), projectKey(main));
}

/** A worktree's record (owner, base, what was copied in) lies beside its folder. */
export function recordPathFor(dir: string): string {
  return `${dir}.json`;
}

/** The lock that serialises creating and removing the worktrees of one repository. */
export function lockPathIn(repositoryFolder: string): string {
  return join(repositoryFolder, '.lock');
}
