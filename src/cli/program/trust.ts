import type { RegisterCommands } from './registration.js';

/** `lathe trust`: the folders whose MCP servers and settings apply. */
export const registerTrust: RegisterCommands = (program, context) => {
  program
    .command('trust [folder]')
    .description(
      'trust a folder (default: this one) and the folders below it: its MCP servers and settings apply',
    )
    .option('--list', 'list the trusted folders')
    .option('--remove', 'stop trusting the folder')
    .action(async (folder: string | undefined, opts) => {
      const { trustCommand } = await import('../commands/trust.js');
      context.exitWith(trustCommand(folder, opts));
    });
};
