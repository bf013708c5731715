import type { RegisterCommands } from './registration.js';

/** `lathe doctor`: what lathe needs here, checked. */
export const registerDoctor: RegisterCommands = (program, context) => {
  program
    .command('doctor')
    .description('check what lathe needs here: tools, sandbox, keys, endpoints, MCP servers, settings')
    .option('--cwd <dir>', 'the folder whose settings and servers are checked')
    .option('-m, --model <provider/model>', 'the model to check (default: settings, or LATHE_MODEL)')
    .option('--json', 'print JSON')
    .action(async (opts) => {
      const { doctorCommand } = await import('../commands/doctor.js');
      context.exitWith(await doctorCommand(opts));
    });
};
