export { createWorktree } from './create.js';
export { WorktreeError } from './errors.js';
export { finishWorktree } from './finish.js';
export {
  listWorktrees,
  type PrunedWorktree,
  type PruneFailure,
  pruneWorktrees,
  type WorktreeListing,
  type WorktreeState,
} from './leftovers.js';
export { BRANCH_PREFIX } from './names.js';
export { worktreesRoot } from './places.js';
export type { SetupRun, SetupRunner } from './project_files.js';
export { prunedLine, pruneFailureLine } from './prune_lines.js';
export type { CreateWorktreeOptions, FinishOptions, FinishResult, Worktree } from './types.js';
