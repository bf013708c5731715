import { Argument } from 'commander';
import type { RegisterCommands } from './registration.js';

/** `lathe completion SHELL`: the shell's completion script, made from the commands registered. */
export const registerCompletion: RegisterCommands = (program, context) => {
  program
    .command('completion')
    .description('print the completion script of a shell: source <(lathe completion bash)')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(['bash', 'zsh', 'fish']))
    .action(async (shell: 'bash' | 'zsh' | 'fish') => {
      const { completionCommand } = await import('../completion/script.js');
      context.exitWith(completionCommand(shell, program));
    });
};
