import type { Command, Option } from 'commander';
import { KNOWN_FEATURES } from '../../config/features.js';
import { APPROVAL_CATEGORIES } from '../../config/types.js';
import { listedModels } from '../list_models.js';

/** One option as a completion script offers it: its names, and the values it takes if any. */
export interface CompletedOption {
  names: string[];
  takesValue: boolean;
  /** The values to offer after it; empty for a free value (a file, a folder, a number). */
  values: string[];
}

/** One command of the tree, by the words that name it (`[]` is lathe itself). */
export interface CompletedCommand {
  path: string[];
  subcommands: string[];
  options: CompletedOption[];
}

/** Values of options commander knows only as free text, but whose words lathe knows. */
const KNOWN_VALUES: Record<string, () => string[]> = {
  '--model': () => listedModels({}).map((m) => m.model),
  '--approve': () => [...APPROVAL_CATEGORIES, 'all'],
  '--feature': () => [...KNOWN_FEATURES],
};

function completedOption(option: Option): CompletedOption {
  const names = [option.short, option.long].filter((name): name is string => Boolean(name));
  const takesValue = option.required || option.optional;
  const known = option.long ? KNOWN_VALUES[option.long] : undefined;
  const values = option.argChoices ?? known?.() ?? [];
  return { names, takesValue, values: takesValue ? values : [] };
}

const HELP: CompletedOption = { names: ['-h', '--help'], takesValue: false, values: [] };

function walk(command: Command, path: string[], out: CompletedCommand[]): void {
  const visible = command.commands.filter((sub) => !(sub as unknown as { _hidden?: boolean })._hidden);
  const subcommands = visible.map((sub) => sub.name());
  if (path.length === 0) subcommands.push('help');
  const options = command.options.filter((option) => !option.hidden).map(completedOption);
  out.push({ path, subcommands, options: [...options, HELP] });
  for (const sub of visible) walk(sub, [...path, sub.name()], out);
}

/**
 * The command tree as the completion scripts need it, read from the program's own definition:
 * a command or option added there is completed without a change here.
 */
export function completionSpec(program: Command): CompletedCommand[] {
  const out: CompletedCommand[] = [];
  walk(program, [], out);
  return out;
}

/** A word quoted for a POSIX shell (and fish): inside single quotes. */
export function quoted(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
