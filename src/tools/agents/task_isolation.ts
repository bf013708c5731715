import type { ToolContext } from '../../tool/types.js';
import { finishWorktree, type Worktree } from '../../worktree/index.js';
import { newWorktree } from '../worktree/new_worktree.js';

/** Where an isolated task works, and what to do with that place once the task has ended. */
export interface TaskWorkspace {
  dir: string;
  /** Called once the task's process has ended; returns a line for its output (what was kept). */
  finish(): Promise<string | undefined>;
}

/**
 * The git worktree a spawned task with `isolation: "worktree"` works in, pinned to HEAD's
 * commit. Isolation never falls back to the main checkout: when no worktree can be made, the
 * task is not started and the error says why.
 */
export async function worktreeForTask(ctx: ToolContext, name: string): Promise<TaskWorkspace> {
  let worktree: Worktree;
  try {
    worktree = await newWorktree(ctx, { name });
  } catch (error) {
    throw new Error(`The task was not started: its worktree could not be made: ${(error as Error).message}`);
  }
  return {
    dir: worktree.dir,
    finish: async () => {
      const done = await finishWorktree(worktree, {});
      if (done.outcome === 'removed') return `worktree ${worktree.branch}: no changes; removed`;
      return `worktree ${worktree.branch}: its changes were committed on the branch\n${done.diffstat ?? ''}`;
    },
  };
}
