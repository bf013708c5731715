import type { IsolatedPlace } from '../agent/agent_runtime.js';
import { ReadTracker } from '../tool/read_tracker.js';
import type { PoolConditions } from '../tool/types.js';
import { newWorktree } from '../tools/worktree/new_worktree.js';
import { finishWorktree } from '../worktree/index.js';
import type { SharedParts } from './tool_context.js';
import { toolContext } from './tool_context.js';

/**
 * A new worktree for a child with `isolation: "worktree"`, pinned to HEAD's commit; the
 * repository's setup commands run in the sandbox, with the worktree as the writable root. When
 * the child ends, what it changed is committed on the worktree's branch.
 */
export async function isolate(
  parts: SharedParts & { tools: { conditions: PoolConditions } },
  name: string,
  sessionDir: string,
): Promise<IsolatedPlace> {
  const context = toolContext(
    parts,
    { sessionDir, conditions: parts.tools.conditions, readFiles: new ReadTracker(), mcp: undefined },
    {},
  );
  const worktree = await newWorktree({ ...context, signal: new AbortController().signal }, { name });
  return { worktree, finish: () => finishWorktree(worktree, {}) };
}
