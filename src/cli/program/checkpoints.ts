import type { RegisterCommands } from './registration.js';

/** `lathe checkpoints`: the workspace's snapshots, listed, restored, measured and pruned. */
export const registerCheckpoints: RegisterCommands = (program, context) => {
  const checkpoints = program
    .command('checkpoints')
    .description('the snapshots taken before prompts and changes: list, restore one, disk used, prune');
  const checkpointsAction =
    (sub: 'list' | 'restore' | 'du' | 'prune') =>
    async (id: string | undefined, opts: { cwd?: string; json?: boolean; all?: boolean }) => {
      const { checkpointsCommand } = await import('../commands/checkpoints.js');
      context.exitWith(await checkpointsCommand(sub, id, opts));
    };
  checkpoints
    .command('list', { isDefault: true })
    .description('the checkpoints of this workspace, newest first')
    .option('--cwd <dir>', 'the workspace (default: the current folder)')
    .option('--json', 'print JSON')
    .action((opts) => checkpointsAction('list')(undefined, opts));
  checkpoints
    .command('restore <id>')
    .description('make the files as they were at a checkpoint (itself checkpointed first)')
    .option('--cwd <dir>', 'the workspace (default: the current folder)')
    .action((id, opts) => checkpointsAction('restore')(id, opts));
  checkpoints
    .command('du')
    .description('disk used by the checkpoints of this workspace and of all')
    .option('--cwd <dir>', 'the workspace (default: the current folder)')
    .option('--json', 'print JSON')
    .action((opts) => checkpointsAction('du')(undefined, opts));
  checkpoints
    .command('prune')
    .description('remove checkpoints past checkpoints.keep and checkpoints.maxAgeDays, then git gc')
    .option('--cwd <dir>', 'the workspace (default: the current folder)')
    .option('--all', 'remove every checkpoint of the workspace')
    .action((opts) => checkpointsAction('prune')(undefined, opts));
};
