import { approvalOptions, type RegisterCommands, runtimeOptions } from './registration.js';

/** `lathe tools` lists the tool pool; `lathe tool NAME` runs one of its tools. */
export const registerTools: RegisterCommands = (program, context) => {
  const { noFeature, latheBin } = context;
  runtimeOptions(
    program.command('tools').description('list the tool pool under the current settings'),
  ).action(async (opts) => {
    const { toolsCommand } = await import('../commands/tools.js');
    context.exitWith(await toolsCommand({ ...opts, noFeature, latheBin }));
  });

  approvalOptions(
    runtimeOptions(
      program.command('tool <name>').description('run one tool directly and print its result'),
    ).option('--input <json>', 'the tool input as JSON ("-" reads standard input)', '{}'),
  ).action(async (name: string, opts) => {
    const { toolCommand } = await import('../commands/tool.js');
    context.exitWith(await toolCommand(name, { ...opts, noFeature, latheBin }));
  });
};
