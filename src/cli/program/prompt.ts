import { readFileSync } from 'node:fs';
import { type Command, Option } from 'commander';
import { EFFORTS } from '../../config/types.js';
import { positiveDollars, positiveWholeNumber } from '../check_arguments.js';
import { UsageError } from '../errors.js';
import {
  approvalOptions,
  type CommandContext,
  collect,
  endpointOptions,
  type RegisterCommands,
  runtimeOptions,
} from './registration.js';

function readStdin(): string {
  try {
    return readFileSync(0, 'utf8');
  } catch {
    return '';
  }
}

/**
 * The prompt of `lathe -p`: the flag's value or the positional one, with what was piped in after
 * it (`cat build.log | lathe -p "why does this fail?"`); a terminal on stdin is not read.
 */
function headlessPrompt(flag: string | true, positional: string | undefined): string {
  if (typeof flag === 'string' && flag !== '-' && positional !== undefined)
    throw new UsageError(
      `two prompts given ("${flag}" and "${positional}"): quote the prompt as one argument`,
    );
  const typed = typeof flag === 'string' && flag !== '-' ? flag : positional;
  const piped = process.stdin.isTTY ? '' : readStdin();
  if (typed === undefined) return piped;
  if (!piped.trim()) return typed;
  return `${typed}\n\n<stdin>\n${piped.replace(/\s+$/, '')}\n</stdin>`;
}

/** `lathe [prompt]`: the interactive UI, or with `-p` one prompt run headless. */
export const registerPrompt: RegisterCommands = (program, context) => {
  const root = runtimeOptions(program)
    .argument('[prompt]', 'a first prompt: the UI opens with it sent (with -p: run it headless)')
    .option(
      '-p, --print [prompt]',
      'run one prompt headless and print the result (piped standard input follows the prompt)',
    )
    .option(
      '-m, --model <provider/model>',
      'the model, e.g. anthropic/claude-sonnet-4-5, ollama/qwen2.5-coder',
    );
  endpointOptions(root)
    .option('--list-models', 'list the known models by provider, ✗ where a key or endpoint is missing')
    .addOption(
      new Option('--output-format <format>', 'headless output')
        .choices(['text', 'json', 'stream-json'])
        .default('text'),
    );
  limitOptions(root);
  approvalOptions(root);
  runOptions(root).action(promptAction(context));
};

/** What a run may spend. */
function limitOptions(command: Command): Command {
  return command
    .option(
      '--max-turns <n>',
      'stop after this many model requests (default: no limit; a model repeating one call is stopped)',
      positiveWholeNumber('--max-turns'),
    )
    .option(
      '--max-tokens <n>',
      'stop before the input + output tokens reach this (children included)',
      positiveWholeNumber('--max-tokens'),
    )
    .option(
      '--max-cost <dollars>',
      'stop before the cost at the model’s known prices reaches this (children included)',
      positiveDollars('--max-cost'),
    );
}

/** The run's answers, session, instructions, reasoning and images. */
function runOptions(command: Command): Command {
  return (
    command
      .option(
        '--json-schema <file>',
        'the final answer must be JSON matching this schema (structured_output)',
      )
      .option('--answers <file>', 'a JSON array of answers to questions and approvals, in order')
      .option('--resume <id>', 'resume a session (an id or unique prefix)')
      .option('-c, --continue', 'continue the latest session of this folder')
      .option('--fork <id>', 'start a new session from the history of this one (an id or unique prefix)')
      .option('--no-session', 'write no session: it cannot be resumed')
      .option('--verbose', 'print tool calls to stderr')
      .option(
        '--system-prompt <text>',
        'instructions that replace lathe’s own (environment and AGENTS.md still follow)',
      )
      .option('--append-system-prompt <text>', 'instructions added at the end of the system prompt')
      .addOption(
        new Option('--effort <level>', 'how hard the model thinks (its reasoning setting)').choices([
          ...EFFORTS,
        ]),
      )
      // spawn_task's runs: agent kind `task` (no spawn_task inside), in the session the starter named.
      .addOption(new Option('--spawned-task <session-id>').hideHelp())
      .option(
        '-i, --image <file>',
        'an image sent with the -p prompt (repeatable; models that take images)',
        collect,
        [],
      )
  );
}

/** The program's own action: the models listed, the UI, or a headless run. */
function promptAction(context: CommandContext): Parameters<Command['action']>[0] {
  const { noFeature, latheBin } = context;
  return async (positional: string | undefined, opts) => {
    if (opts.listModels) {
      context.exitWith((await import('../list_models.js')).listModelsCommand(opts));
      return;
    }
    if (opts.print === undefined) {
      if (opts.image.length > 0)
        throw new UsageError('-i/--image goes with -p; in the UI, name the image with @file.png');
      const { runInteractive } = await import('../interactive.js');
      context.exitWith(await runInteractive({ ...opts, noFeature, latheBin, prompt: positional }));
      return;
    }
    const prompt = headlessPrompt(opts.print, positional);
    if (!prompt.trim()) {
      process.stderr.write('lathe: -p needs a prompt (as its value or on standard input)\n');
      context.exitWith(2);
      return;
    }
    const { runHeadless } = await import('../headless/run.js');
    context.exitWith(await runHeadless({ ...opts, noFeature, latheBin, prompt }));
  };
}
