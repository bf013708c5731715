import type { ToolContext } from '../../tool/types.js';

/** Where an isolated task works, and what to do with that place once the task has ended. */
export interface TaskWorkspace {
  dir: string;
  /** Called once the task's process has ended; returns a line for its output (what was kept). */
  finish(): Promise<string | undefined>;
}

/**
 * The git worktree a spawned task with `isolation: "worktree"` works in. Isolation must never
 * fall back to the main checkout: until worktrees are built in, this refuses with the reason.
 */
export async function worktreeForTask(_ctx: ToolContext, _name: string): Promise<TaskWorkspace> {
  throw new Error(
    'isolation "worktree" is not available in this build: the task was not started (it never runs in the main checkout instead). Start it without isolation, or not at all.',
  );
}
