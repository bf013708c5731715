import { names } from './options.js';
import type { Assignment, Word } from './types.js';
import { literal } from './words.js';

/** The command a chain of wrappers (`sudo timeout 5 nice -n 2 ls`) finally runs. */
export interface Unwrapped {
  words: Word[];
  wrappers: string[][];
  assignments: Assignment[];
  argsFromInput: boolean;
}

/** Where a wrapper's own arguments end and the wrapped command begins, or undefined to stop peeling. */
interface WrapperSplit {
  commandAt: number;
  assignments?: Assignment[];
  /** xargs: the command also gets words from its input, or `-I` replaces this text with them. */
  input?: { replace?: string };
}

type Splitter = (words: Word[]) => WrapperSplit | undefined;

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s;

/**
 * Peels off wrappers that run their arguments as a command. When a wrapper's options are not
 * understood (or are only known at run time) peeling stops, so the wrapper itself is what gets
 * judged, and it is on no allowlist.
 */
export function unwrap(words: Word[]): Unwrapped {
  const result: Unwrapped = { words, wrappers: [], assignments: [], argsFromInput: false };
  for (;;) {
    const head = result.words[0];
    const splitter = head && !head.dynamic ? SPLITTERS[head.value] : undefined;
    const split = splitter?.(result.words);
    if (!split) return result;
    result.wrappers.push(result.words.slice(0, split.commandAt).map((w) => w.value));
    result.assignments.push(...(split.assignments ?? []));
    let rest = result.words.slice(split.commandAt);
    if (split.input) {
      // xargs with no command runs echo.
      if (rest.length === 0) rest = [literal('echo')];
      const replace = split.input.replace;
      if (replace) rest = rest.map((w) => markReplaced(w, replace));
      else result.argsFromInput = true;
    }
    result.words = rest;
    if (rest.length === 0) return result;
  }
}

function markReplaced(word: Word, token: string): Word {
  const at = word.value.indexOf(token);
  if (at < 0) return word;
  // Both are prefixes of the value, so the shorter is what every resulting word starts with.
  const prefix =
    word.dynamic && word.literalPrefix.length < at ? word.literalPrefix : word.value.slice(0, at);
  return { value: word.value, dynamic: true, literalPrefix: prefix };
}

interface WrapperOptions {
  /** Options without a value. */
  flags: string[];
  /** Options with a value, attached (`-n1`, `--max-args=1`) or in the next word. */
  valued?: string[];
  /** Options whose value can only be attached (`-l5`, `--max-lines=5`); alone they take none. */
  optional?: string[];
}

/** Index of the first word after a wrapper's options, or undefined when they are not understood. */
function scanWrapperOptions(
  words: Word[],
  spec: WrapperOptions,
  onOption?: (name: string, value: string | undefined) => void,
): number | undefined {
  let i = 1;
  for (; i < words.length; i++) {
    const word = words[i];
    if (word.dynamic) return word.literalPrefix && !word.literalPrefix.startsWith('-') ? i : undefined;
    const text = word.value;
    if (text === '--') return i + 1;
    if (!text.startsWith('-') || text === '-') return i;
    const long = text.startsWith('--');
    const eq = long ? text.indexOf('=') : -1;
    const name = eq > 0 ? text.slice(0, eq) : text;
    const attached = (option: string) =>
      long ? (eq > 0 ? text.slice(eq + 1) : undefined) : text.slice(option.length) || undefined;
    const matches = (option: string) =>
      name === option || (!long && !option.startsWith('--') && text.startsWith(option));
    if (spec.flags.includes(text)) {
      onOption?.(text, undefined);
    } else if (spec.optional?.some(matches)) {
      const option = spec.optional.find(matches)!;
      onOption?.(option, attached(option));
    } else if (spec.valued?.some(matches)) {
      const option = spec.valued.find(matches)!;
      let value = attached(option);
      if (value === undefined) {
        const next = words[++i];
        if (!next || next.dynamic) return undefined;
        value = next.value;
      }
      onOption?.(option, value);
    } else {
      return undefined;
    }
  }
  return i;
}

function xargs(words: Word[]): WrapperSplit | undefined {
  let replace: string | undefined;
  const commandAt = scanWrapperOptions(
    words,
    {
      flags: names('-0 --null -o --open-tty -p --interactive -r --no-run-if-empty -t --verbose -x --exit'),
      valued: names('-a --arg-file -d --delimiter -E -I -L -n --max-args -P --max-procs -s --max-chars'),
      optional: names('-e --eof -l --max-lines -i --replace'),
    },
    (name, value) => {
      if (name === '-I' || name === '-i' || name === '--replace') replace = value ?? '{}';
    },
  );
  return commandAt === undefined ? undefined : { commandAt, input: { replace } };
}

function env(words: Word[]): WrapperSplit | undefined {
  // -S splits a string into a command line and -P searches its own path: not followed.
  let at = scanWrapperOptions(words, {
    flags: names('-i --ignore-environment -0 --null -v --debug'),
    valued: names('-u --unset -C --chdir'),
  });
  if (at === undefined) return undefined;
  const assignments: Assignment[] = [];
  for (; at < words.length; at++) {
    const word = words[at];
    const match = ASSIGNMENT.exec(word.value);
    if (!match || (word.dynamic && !word.literalPrefix.includes('='))) break;
    assignments.push({ name: match[1], value: match[2], dynamic: word.dynamic });
  }
  // Without a command env prints the environment: left as is for the allowlist.
  return at < words.length ? { commandAt: at, assignments } : undefined;
}

function sudo(words: Word[]): WrapperSplit | undefined {
  const at = scanWrapperOptions(words, {
    flags: names('-A --askpass -b --background -E --preserve-env -H --set-home -n --non-interactive'),
    valued: names('-u --user -g --group -C --close-from -D --chdir -p --prompt -U --other-user'),
  });
  return at !== undefined && at < words.length ? { commandAt: at } : undefined;
}

function timeout(words: Word[]): WrapperSplit | undefined {
  const at = scanWrapperOptions(words, {
    flags: names('--foreground -f --preserve-status -p -v --verbose'),
    valued: names('-s --signal -k --kill-after'),
  });
  // The duration comes before the command.
  return at !== undefined && at + 1 < words.length ? { commandAt: at + 1 } : undefined;
}

function nice(words: Word[]): WrapperSplit | undefined {
  const second = words[1];
  if (second && !second.dynamic && /^-\d+$/.test(second.value)) {
    return words.length > 2 ? { commandAt: 2 } : undefined;
  }
  const at = scanWrapperOptions(words, { flags: [], valued: names('-n --adjustment') });
  return at !== undefined && at < words.length ? { commandAt: at } : undefined;
}

/** Only flags, then the command. `command -v` / `-V` only look a name up, so they stay as they are. */
function flagsThenCommand(flags: string[]): Splitter {
  return (words) => {
    const at = scanWrapperOptions(words, { flags });
    return at !== undefined && at < words.length ? { commandAt: at } : undefined;
  };
}

const SPLITTERS: Record<string, Splitter> = {
  xargs,
  env,
  sudo,
  timeout,
  nice,
  nohup: flagsThenCommand([]),
  command: flagsThenCommand(names('-p')),
  // The bash keyword (`/usr/bin/time -o file` writes, so only `-p` is followed).
  time: flagsThenCommand(names('-p')),
};
