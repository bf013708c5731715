import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { WorktreeError } from '../../worktree/index.js';
import { newWorktree } from './new_worktree.js';
import { WORKTREE_AVAILABILITY, worktreeData } from './shared.js';

const inputSchema = lazySchema(() =>
  z.strictObject({
    name: z
      .string()
      .optional()
      .describe('Letters, digits, ".", "_" and "-"; the branch is lathe/<name>. Default: a fresh name'),
    base: z
      .string()
      .optional()
      .describe('A branch, tag or commit to start from. Default: the commit HEAD points at now'),
  }),
);

export const enterWorktree = buildTool({
  name: 'enter_worktree',
  inputSchema,
  description:
    'Move this session into a new git worktree of the repository: its own folder and branch lathe/<name>, ' +
    'started from the commit HEAD (or base) points at now. From then on files, commands and permissions work ' +
    'in the worktree and the main checkout is left as it is (its uncommitted changes are not in the worktree). ' +
    'Leave with exit_worktree, which commits your changes on the branch or removes an unchanged worktree.',
  // Its setup commands write: not in Plan mode, whose commands are read-only.
  availability: { ...WORKTREE_AVAILABILITY, modes: ['act'] },
  kind: 'other',
  userFacingName: () => 'Enter worktree',
  detail: (input) => input.name ?? input.base ?? 'new worktree',
  async call(input, ctx) {
    const move = ctx.workspaceMove;
    if (!move) return { isError: true, text: 'This session cannot move into a worktree here.' };
    if (move.worktree)
      return {
        isError: true,
        text: `Already in worktree ${move.worktree.name} (${move.worktree.dir}); leave it with exit_worktree first.`,
      };
    const name = input.name;
    try {
      const worktree = await newWorktree(ctx, { name, base: input.base });
      move.moveTo(worktree);
      const notes = worktree.notes.map((note) => `\nNote: ${note}.`).join('');
      return {
        text:
          `Now working in worktree ${worktree.name}: ${worktree.dir}, on branch ${worktree.branch} from commit ` +
          `${worktree.baseSha.slice(0, 12)}. Files, commands and permissions work there; leave with exit_worktree.${notes}`,
        data: worktreeData(worktree),
      };
    } catch (error) {
      if (error instanceof WorktreeError) return { isError: true, text: `${error.message}.` };
      throw error;
    }
  },
});
