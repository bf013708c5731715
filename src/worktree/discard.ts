import { existsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import type { RepositoryGit } from './git.js';
import { recordPathFor } from './places.js';
import type { WorktreeRecord } from './record.js';

/**
 * Takes away a worktree made (or half made) by lathe with nothing worth keeping: the folder, its
 * registration in the repository, its branch while it still points at the base, and the record.
 * Call it holding the repository's lock.
 */
export async function discardWorktree(git: RepositoryGit, record: WorktreeRecord): Promise<void> {
  if (existsSync(record.repoRoot)) {
    // Twice forced: also a worktree git marked locked (one cut short while being added).
    await git.run(record.repoRoot, ['worktree', 'remove', '--force', '--force', record.dir]);
    const tip = await git.run(record.repoRoot, [
      'rev-parse',
      '--verify',
      '--quiet',
      `refs/heads/${record.branch}`,
    ]);
    if (tip.status === 0 && tip.stdout.trim() === record.baseSha)
      await git.run(record.repoRoot, ['branch', '--quiet', '-D', record.branch]);
  }
  await fs.rm(record.dir, { recursive: true, force: true });
  await fs.rm(recordPathFor(record.dir), { force: true });
}
