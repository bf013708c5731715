import type { RegisterCommands } from './registration.js';

/** `lathe worktrees`: the git worktrees lathe made, listed or pruned. */
export const registerWorktrees: RegisterCommands = (program, context) => {
  const worktrees = program
    .command('worktrees')
    .description("list lathe's git worktrees, or prune those whose process is gone");
  const worktreesAction = (sub: 'list' | 'prune') => async (opts: { json?: boolean }) => {
    const { worktreesCommand } = await import('../commands/worktrees.js');
    context.exitWith(await worktreesCommand(sub, opts));
  };
  worktrees
    .command('list', { isDefault: true })
    .description('name, branch, folder, owner, alive / stale / kept, changes')
    .option('--json', 'print JSON')
    .action(worktreesAction('list'));
  worktrees
    .command('prune')
    .description('commit the changes of worktrees whose process is gone on their branches, and remove them')
    .option('--json', 'print JSON')
    .action(worktreesAction('prune'));
};
