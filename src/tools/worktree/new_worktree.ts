import type { ToolContext } from '../../tool/types.js';
import { createWorktree, type Worktree } from '../../worktree/index.js';
import { sandboxedSetup } from './setup_runner.js';

/**
 * A new worktree of the session's home repository, for enter_worktree, an isolated child or a
 * spawned task: pinned to HEAD's commit (or `base`'s), the repository's setup commands run in
 * the sandbox and only when the home folder is trusted.
 */
export function newWorktree(ctx: ToolContext, options: { name?: string; base?: string }): Promise<Worktree> {
  const move = ctx.workspaceMove;
  return createWorktree({
    repo: move?.home ?? ctx.workspace,
    name: options.name,
    base: options.base,
    documentsRoot: ctx.documentsRoot,
    trusted: move?.trusted ?? false,
    runSetup: sandboxedSetup(ctx, options.name ?? 'new'),
  });
}
