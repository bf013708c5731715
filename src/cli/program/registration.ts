import { type Command, Option } from 'commander';
import { PROFILES } from '../../config/types.js';

/** What a command group's registration needs of the command line being run. */
export interface CommandContext {
  /** The features turned off with `--no-feature` (parsed by hand: see program.ts). */
  readonly noFeature: string[];
  /** The lathe command's own script, which scheduled and triggered runs start. */
  readonly latheBin?: string;
  /** Sets the code lathe exits with: the command that ran says it. */
  exitWith(code: number): void;
}

/** Adds a group of commands (or, for the prompt, the program's own options and action). */
export type RegisterCommands = (program: Command, context: CommandContext) => void;

/** A repeatable option's values, in order. */
export const collect = (value: string, previous: string[] = []) => [...previous, value];

export const TRUST_HELP =
  'trust this folder for this run: its MCP servers and settings apply (see lathe trust)';

export const profileOption = () =>
  new Option('--profile <profile>', 'prompt configuration').choices([...PROFILES]);

/** Options shared by every command that builds a runtime. */
export function runtimeOptions(command: Command): Command {
  return command
    .option('--cwd <dir>', 'working folder (default: the current folder)')
    .addOption(profileOption())
    .addOption(new Option('--mode <mode>', 'Plan or Act mode').choices(['plan', 'act']))
    .option('--strict-plan', 'Strict Plan Mode: in Plan mode the file-writing tools are refused, not asked')
    .option('--feature <name>', 'turn a feature on (repeatable)', collect, [])
    .addOption(
      new Option('--sandbox <mode>', 'where commands may write (default workspace-write)').choices([
        'read-only',
        'workspace-write',
        'off',
      ]),
    )
    .addHelpText('after', '\n  --no-feature <name>  turn a feature off (repeatable)')
    .option('--json', 'print JSON')
    .option('--trust', TRUST_HELP)
    .option(
      '--add-dir <dir>',
      'another folder the tools may read and edit, as the workspace (repeatable)',
      collect,
      [],
    )
    .option(
      '--allowed-tools <rules...>',
      'allow rules for this run, as in settings: read_file "execute_command(npm test)"',
    )
    .option(
      '--disallowed-tools <rules...>',
      'deny rules for this run, as in settings: "execute_command(git push)"',
    );
}

/** How a command that runs tools answers their asks for approval without a person. */
export function approvalOptions(command: Command): Command {
  return command
    .option(
      '--approve <category>',
      'answer asks of this approval category with yes (repeatable; "all")',
      collect,
      [],
    )
    .option('--yolo', 'answer every approval with yes (deny rules and protected paths still hold)');
}

/** Where a command's model is reached, beside `--model`. */
export function endpointOptions(command: Command): Command {
  return command
    .option('--base-url <url>', 'the provider endpoint (OpenAI-compatible servers, proxies)')
    .option('--api-key <key>', 'the API key (default: the provider’s usual environment variable)');
}
