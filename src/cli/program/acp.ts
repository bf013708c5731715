import {
  collect,
  endpointOptions,
  profileOption,
  type RegisterCommands,
  TRUST_HELP,
} from './registration.js';

/** `lathe acp`: the Agent Client Protocol server for editors. */
export const registerAcp: RegisterCommands = (program, context) => {
  endpointOptions(
    program
      .command('acp')
      .description('the Agent Client Protocol over stdio, for editors (Zed, JetBrains, Neovim, Emacs)')
      .option('-m, --model <provider/model>', 'the model sessions start with (default: settings)'),
  )
    .addOption(profileOption())
    .option('--feature <name>', 'turn a feature on (repeatable)', collect, [])
    .option('--trust', TRUST_HELP)
    .action(async (opts) => {
      const { acpCommand } = await import('../commands/acp.js');
      context.exitWith(
        await acpCommand({ ...opts, noFeature: context.noFeature, latheBin: context.latheBin }),
      );
    });
};
