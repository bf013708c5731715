import type { Availability } from '../../tool/types.js';
import type { Worktree } from '../../worktree/index.js';

/**
 * The worktree tools: feature `worktree`, standard profile (seed 000 marks no tool of seed 001 Lite,
 * and simple keeps its three tools); a child agent is isolated by its parent instead.
 */
export const WORKTREE_AVAILABILITY: Availability = {
  profiles: ['standard'],
  feature: 'worktree',
  notFor: ['subagent'],
};

/** What a worktree tool's result data says of the worktree. */
export function worktreeData(worktree: Worktree) {
  const { name, dir, branch, baseSha, repoRoot } = worktree;
  return { name, dir, branch, baseSha, repoRoot };
}
