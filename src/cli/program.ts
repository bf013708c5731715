import { Command, CommanderError } from 'commander';
import { checkArguments } from './check_arguments.js';
import { checkCommandTypo } from './command_guess.js';
import { errorLine, UsageError } from './errors.js';
import { registerAcp } from './program/acp.js';
import { registerCheckpoints } from './program/checkpoints.js';
import { registerCompletion } from './program/completion.js';
import { registerDoctor } from './program/doctor.js';
import { registerJobs } from './program/jobs.js';
import { registerListings } from './program/listings.js';
import { registerMcp } from './program/mcp.js';
import { registerPrompt } from './program/prompt.js';
import type { CommandContext, RegisterCommands } from './program/registration.js';
import { registerSessions } from './program/sessions.js';
import { registerTools } from './program/tools.js';
import { registerTrust } from './program/trust.js';
import { registerWorktrees } from './program/worktrees.js';

/**
 * The command groups, in the order `lathe --help` lists them; each loads its command's code only
 * when that command runs. The prompt comes last: it gives the program itself its options.
 */
const COMMAND_GROUPS: RegisterCommands[] = [
  registerDoctor,
  registerTools,
  registerSessions,
  registerWorktrees,
  registerCheckpoints,
  registerMcp,
  registerListings,
  registerJobs,
  registerAcp,
  registerTrust,
  registerCompletion,
  registerPrompt,
];

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

/** Options of the program typed before a command would be ignored by it: say where they go. */
function checkPlacement(program: Command, command: Command): void {
  for (const key of Object.keys(program.opts())) {
    if (program.getOptionValueSource(key) !== 'cli') continue;
    const flag = program.options.find((o) => o.attributeName() === key)?.long ?? key;
    throw new UsageError(`${flag} goes after the command: lathe ${command.name()} ${flag} …`);
  }
}

/** Thrown by a parse-only run once the command line is known to parse. */
class ParsedOnly extends Error {}

/**
 * Runs lathe's command line. `latheBin`: the lathe command's own script, which scheduled and
 * triggered runs start. `parseOnly` stops once commander has parsed the line (before arguments
 * are checked against the disk and before anything starts): documentation tests use it to prove
 * each documented command is one lathe understands.
 */
export async function runCli(
  argv: string[],
  options: { latheBin?: string; parseOnly?: boolean } = {},
): Promise<number> {
  const disabled = disabledFeatures(argv);
  let exitCode = 0;
  const program = new Command('lathe')
    .description('An open, provider-agnostic coding agent for the terminal')
    .exitOverride()
    .enablePositionalOptions()
    .configureOutput({
      writeErr: (text) => process.stderr.write(text),
      // Commander's own errors read as lathe's: one line, "lathe: …".
      outputError: (text, write) => write(text.replace(/^error: /, 'lathe: ')),
    })
    // `lathe help` as well as `lathe --help`, though the program also takes a prompt.
    .helpCommand(true)
    // Every command's arguments are checked before it starts anything.
    .hook('preAction', (program, command) => {
      if (command !== program) checkPlacement(program, command);
      if (options.parseOnly) throw new ParsedOnly();
      return checkArguments(command.opts());
    });

  const context: CommandContext = {
    noFeature: disabled,
    latheBin: options.latheBin,
    exitWith: (code) => {
      exitCode = code;
    },
  };
  for (const register of COMMAND_GROUPS) register(program, context);

  try {
    checkCommandTypo(program, argv);
    await program.parseAsync(stripNoFeature(argv), { from: 'user' });
  } catch (error) {
    if (error instanceof ParsedOnly) return 0;
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    process.stderr.write(`lathe: ${errorLine(error)}\n`);
    // A settings file lathe cannot use (config/settings_file.ts) is the user's to fix: exit 2.
    return error instanceof UsageError || (error as Error).name === 'SettingsError' ? 2 : 1;
  }
  return exitCode;
}
