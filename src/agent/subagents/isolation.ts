import type { SubagentRequest } from '../../tool/context/agents.js';

/** Where a child works other than the parent's checkout, when it asked for isolation. */
export interface Isolation {
  cwd: string;
}

/**
 * The one place a child's `isolation: "worktree"` is decided. A child that asked for a
 * worktree and cannot have one is refused, never run in the main checkout; worktrees are not
 * built yet, so for now every such request is refused with the reason.
 */
export async function isolationFor(request: SubagentRequest): Promise<Isolation | undefined> {
  if (request.isolation !== 'worktree') return undefined;
  throw new Error(
    'isolation: "worktree" is not available yet: no child was started. Leave isolation out to work in the current checkout.',
  );
}
