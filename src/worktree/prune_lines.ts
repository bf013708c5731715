import type { PrunedWorktree, PruneFailure } from './leftovers.js';

/** One line for a pruned leftover: what became of its work. */
export function prunedLine(pruned: PrunedWorktree): string {
  const what =
    pruned.outcome === 'committed'
      ? `its changes are committed on ${pruned.branch} (${pruned.commit?.slice(0, 12)})`
      : `nothing had changed; it and ${pruned.branch} were removed`;
  return `pruned worktree ${pruned.name} of ${pruned.repoRoot} (its process ${pruned.ownerPid} is gone): ${what}`;
}

export function pruneFailureLine(failure: PruneFailure): string {
  return `could not prune worktree ${failure.name} (${failure.dir}): ${failure.reason}`;
}
