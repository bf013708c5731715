import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { finishWorktree, WorktreeError } from '../../worktree/index.js';
import { WORKTREE_AVAILABILITY, worktreeData } from './shared.js';

const inputSchema = lazySchema(() =>
  z.strictObject({
    keep: z
      .boolean()
      .optional()
      .describe('Leave the worktree and its uncommitted changes as they are, instead of committing them'),
  }),
);

export const exitWorktree = buildTool({
  name: 'exit_worktree',
  inputSchema,
  description:
    'Leave the worktree entered with enter_worktree and go back to the main checkout. Changes are committed on ' +
    "the worktree's branch (the result has the diffstat) and its folder is removed; an unchanged worktree is " +
    'removed with its branch. With keep: true the folder and its uncommitted changes stay for later.',
  availability: WORKTREE_AVAILABILITY,
  kind: 'other',
  userFacingName: () => 'Leave worktree',
  detail: (input) => (input.keep ? 'keep' : 'finish'),
  async call(input, ctx) {
    const move = ctx.workspaceMove;
    const worktree = move?.worktree;
    if (!move || !worktree) return { isError: true, text: 'Not in a worktree: there is nothing to leave.' };
    try {
      const result = await finishWorktree(worktree, { keep: input.keep });
      move.moveTo(undefined);
      const back = `Back in ${move.home}.`;
      const stat = result.diffstat ? `\n${result.diffstat}` : '';
      const text =
        result.outcome === 'removed'
          ? `Left worktree ${worktree.name}: nothing had changed, so its folder and branch ${worktree.branch} were removed. ${back}`
          : result.outcome === 'committed'
            ? `Left worktree ${worktree.name}: the changes are committed on branch ${worktree.branch} (${result.commit?.slice(0, 12)}) and its folder was removed. ${back}${stat}`
            : `Left worktree ${worktree.name} as it is, uncommitted changes and all: ${worktree.dir} (branch ${worktree.branch}). ${back}${stat}`;
      return { text, data: { ...worktreeData(worktree), ...result } };
    } catch (error) {
      if (error instanceof WorktreeError)
        return { isError: true, text: `${error.message}. Still in worktree ${worktree.name}.` };
      throw error;
    }
  },
});
