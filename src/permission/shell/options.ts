import type { Word } from './types.js';

/** Judges a command's arguments (argv without the name): a reason it is not read-only, or undefined. */
export type CommandCheck = (args: Word[]) => string | undefined;

export const anyArguments: CommandCheck = () => undefined;

/** `'-a --all -b'` → `['-a', '--all', '-b']`: keeps long option lists readable. */
export const names = (list: string): string[] => list.split(' ').filter(Boolean);

/** Could this word reach the program as an option? A dynamic word can, unless its known start rules it out. */
export function mayBeOption(word: Word): boolean {
  if (word.dynamic) return word.literalPrefix === '' || word.literalPrefix.startsWith('-');
  return word.value.startsWith('-') && word.value !== '-';
}

export function dynamicOptionReason(word: Word): string {
  return `${word.value} may expand to an option`;
}

/**
 * Finds a forbidden option anywhere in the arguments. `--` is not trusted to end the options, since
 * it may be the value of an option before it. Long options match by prefix, as GNU tools accept any
 * unambiguous abbreviation (`--out=f` is `--output=f`). Short letters match anywhere in a cluster.
 */
export function findForbiddenOption(
  args: Word[],
  forbidden: { short?: string; long?: string[] },
): string | undefined {
  for (const word of args) {
    if (word.dynamic) {
      if (mayBeOption(word)) return dynamicOptionReason(word);
      continue;
    }
    const text = word.value;
    if (text.startsWith('--')) {
      const name = text.slice(2).split('=')[0];
      if (name && forbidden.long?.some((option) => option.startsWith(name)))
        return `option ${text} is not read-only`;
    } else if (text.startsWith('-') && forbidden.short) {
      const letter = [...text.slice(1)].find((c) => forbidden.short!.includes(c));
      if (letter) return `option -${letter} is not read-only`;
    }
  }
  return undefined;
}

export interface StrictSpec {
  /** Short letters without a value. */
  flags?: string;
  /** Short letters with a value, attached or in the next word. */
  valued?: string;
  /** Short letters whose value can only be attached (`-Iseconds`); alone they take none. */
  valueAttached?: string;
  /** Exact long names without a value. */
  longFlags?: string[];
  /** Exact long names with a value (`--name=v` or `--name v`). */
  longValued?: string[];
  /** Exact long names with an optional attached value (`--name` or `--name=v`). */
  longOptional?: string[];
  /** Options may follow operands: a single implementation (git, npm) that always reads them as options. */
  optionsAnywhere?: boolean;
}

export interface StrictOption {
  name: string;
  value?: Word;
}

export type StrictResult = { options: StrictOption[]; operands: Word[] } | { error: string };

/**
 * Reads arguments against a complete list of the options allowed; anything else is an error. An
 * option after an operand is refused unless `optionsAnywhere`: GNU tools read it as an option, BSD
 * tools as an operand.
 */
export function parseStrict(args: Word[], spec: StrictSpec): StrictResult {
  const options: StrictOption[] = [];
  const operands: Word[] = [];
  let endOfOptions = false;
  for (let i = 0; i < args.length; i++) {
    const word = args[i];
    if (endOfOptions) {
      operands.push(word);
      continue;
    }
    if (!word.dynamic && word.value === '--') {
      endOfOptions = true;
      continue;
    }
    if (!mayBeOption(word)) {
      operands.push(word);
      continue;
    }
    if (word.dynamic) return { error: dynamicOptionReason(word) };
    if (operands.length > 0 && !spec.optionsAnywhere)
      return { error: `option ${word.value} after an operand` };
    const text = word.value;
    if (text.startsWith('--')) {
      const eq = text.indexOf('=');
      const name = eq < 0 ? text : text.slice(0, eq);
      const attached = eq < 0 ? undefined : plain(text.slice(eq + 1));
      if (spec.longFlags?.includes(name) && !attached) options.push({ name });
      else if (spec.longOptional?.includes(name)) options.push({ name, value: attached });
      else if (spec.longValued?.includes(name)) {
        const value = attached ?? args[++i];
        if (!value) return { error: `option ${name} needs a value` };
        options.push({ name, value });
      } else return { error: `option ${text} is not known to be read-only` };
      continue;
    }
    for (let j = 1; j < text.length; j++) {
      const letter = text[j];
      if (spec.flags?.includes(letter)) {
        options.push({ name: `-${letter}` });
      } else if (spec.valueAttached?.includes(letter)) {
        options.push({
          name: `-${letter}`,
          value: j + 1 < text.length ? plain(text.slice(j + 1)) : undefined,
        });
        break;
      } else if (spec.valued?.includes(letter)) {
        const value = j + 1 < text.length ? plain(text.slice(j + 1)) : args[++i];
        if (!value) return { error: `option -${letter} needs a value` };
        options.push({ name: `-${letter}`, value });
        break;
      } else {
        return { error: `option -${letter} is not known to be read-only` };
      }
    }
  }
  return { options, operands };
}

function plain(value: string): Word {
  return { value, dynamic: false, literalPrefix: value };
}

/** Whether a strict parse saw any of these options. */
export function hasOption(options: StrictOption[], ...names: string[]): boolean {
  return options.some((option) => names.includes(option.name));
}

/** For commands whose later operands are outputs: a dynamic operand may be several words. */
export function tooManyOperands(operands: Word[], max: number): string | undefined {
  if (operands.some((word) => word.dynamic))
    return 'an operand is only known at run time (it may be several)';
  return operands.length > max ? `more than ${max} operand(s): the last is written to` : undefined;
}
