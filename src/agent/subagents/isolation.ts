import type { AgentType } from '../../config/agent_types/index.js';
import type { SubagentRequest, SubagentTag } from '../../tool/context/agents.js';
import type { AgentRuntime, IsolatedPlace } from '../agent_runtime.js';

/** Whether a child works in a worktree of its own: its call asks, or its type does for every child. */
export function wantsWorktree(request: SubagentRequest, type: AgentType): boolean {
  return (request.isolation ?? type.isolation) === 'worktree';
}

/**
 * The one place a child's worktree is made. A child that asked for one and cannot have it
 * fails with the reason ("It could not start: its worktree could not be made: …"); it never
 * runs in the main checkout instead.
 */
export async function isolatedPlace(runtime: AgentRuntime, tag: SubagentTag): Promise<IsolatedPlace> {
  if (!runtime.isolate)
    throw new Error('this runtime cannot make git worktrees, so isolation "worktree" is not possible here');
  try {
    return await runtime.isolate(tag.id);
  } catch (error) {
    throw new Error(`its worktree could not be made: ${(error as Error).message}`);
  }
}
