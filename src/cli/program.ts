import { Command, CommanderError, Option } from 'commander';
import { PROFILES } from '../config/types.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Options shared by every command that builds a runtime. */
function runtimeOptions(command: Command): Command {
  return command
    .option('--cwd <dir>', 'working folder (default: the current folder)')
    .addOption(new Option('--profile <profile>', 'prompt configuration').choices([...PROFILES]))
    .addOption(new Option('--mode <mode>', 'Plan or Act mode').choices(['plan', 'act']))
    .option('--feature <name>', 'turn a feature on (repeatable)', collect, [])
    .addHelpText('after', '\n  --no-feature <name>  turn a feature off (repeatable)')
    .option('--json', 'print JSON');
}

/** Parses `--no-feature a --no-feature b` by hand: commander's negation does not collect values. */
function disabledFeatures(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--no-feature' && args[i + 1]) out.push(args[++i]);
    else if (args[i].startsWith('--no-feature=')) out.push(args[i].slice('--no-feature='.length));
  }
  return out;
}

function stripNoFeature(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--no-feature') i++;
    else if (!args[i].startsWith('--no-feature=')) out.push(args[i]);
  }
  return out;
}

export async function runCli(argv: string[]): Promise<number> {
  const disabled = disabledFeatures(argv);
  let exitCode = 0;
  const program = new Command('lathe')
    .description('An open, provider-agnostic coding agent for the terminal')
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });

  runtimeOptions(
    program.command('tools').description('list the tool pool under the current settings'),
  ).action(async (opts) => {
    const { toolsCommand } = await import('./commands/tools.js');
    exitCode = await toolsCommand({ ...opts, noFeature: disabled });
  });

  runtimeOptions(program.command('tool <name>').description('run one tool directly and print its result'))
    .option('--input <json>', 'the tool input as JSON ("-" reads standard input)', '{}')
    .option(
      '--approve <category>',
      'answer asks of this approval category with yes (repeatable; "all")',
      collect,
      [],
    )
    .option('--yolo', 'answer every approval with yes (deny rules and protected paths still hold)')
    .action(async (name: string, opts) => {
      const { toolCommand } = await import('./commands/tool.js');
      exitCode = await toolCommand(name, { ...opts, noFeature: disabled });
    });

  program.action(() => {
    process.stderr.write(
      'lathe: the interactive UI and headless runs are not available in this build yet.\n' +
        'Try `lathe tools` or `lathe tool read_file --input \'{"path":"README.md"}\'`.\n',
    );
    exitCode = 2;
  });

  try {
    await program.parseAsync(stripNoFeature(argv), { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    process.stderr.write(`lathe: ${(error as Error).message}\n`);
    return 1;
  }
  return exitCode;
}
