import type { Subcommand, Word } from './types.js';
import type { Unwrapped } from './wrappers.js';

/** The shells whose `-c SCRIPT` is judged by the script's own commands. */
const SHELLS = new Set(['bash', 'sh', 'zsh']);
/** Where a shell named by its path may live: the system's folders, never the workspace. */
const SHELL_FOLDERS = /^\/(usr\/(local\/)?)?bin\/|^\/opt\/homebrew\/bin\//;
/** `-c` runs the script; `-lc` first reads the login profile (the user's own files, outside the workspace). */
const SCRIPT_FLAGS = new Set(['-c', '-lc']);

/** `bash -lc 'ls -la'`: the shell, its flag and the script it runs. */
export interface ShellScript {
  shell: string;
  flag: string;
  script: string;
  /** Read with bash's own grammar; for sh and zsh only plain words are taken as bash reads them. */
  bash: boolean;
}

function shellName(word: Word | undefined): string | undefined {
  if (!word || word.dynamic) return undefined;
  const name = word.value.slice(word.value.lastIndexOf('/') + 1);
  if (!SHELLS.has(name)) return undefined;
  return name === word.value || SHELL_FOLDERS.test(word.value) ? name : undefined;
}

/**
 * The script of `SHELL -c SCRIPT` or `SHELL -lc SCRIPT`, when that is the whole command: exactly one
 * script after the flag, known before the command runs, and no words from xargs' input (they would
 * become `$0`, `$1`). Any other form (more arguments, other flags, `-i`) is left as a command that is
 * on no allowlist.
 */
export function shellScript(command: Unwrapped): ShellScript | undefined {
  const [name, flag, script, ...rest] = command.words;
  const shell = shellName(name);
  if (!shell || rest.length > 0 || command.argsFromInput) return undefined;
  if (!flag || flag.dynamic || !SCRIPT_FLAGS.has(flag.value)) return undefined;
  if (!script || script.dynamic) return undefined;
  return { shell, flag: flag.value, script: script.value, bash: shell === 'bash' };
}

/** Why a shell command was not judged by its script (it is then on no allowlist). */
export function shellCommandProblem(sub: Subcommand): string | undefined {
  if (!shellName(sub.words[0])) return undefined;
  const name = sub.argv[0];
  const script =
    name === 'bash' ? 'a script that parses' : 'a script of plain words (no expansions or globs)';
  const interactive = sub.words.some((word) => !word.dynamic && word.value === '-i');
  return (
    `${name} runs a script that is judged only as ${name} -c 'SCRIPT' or ${name} -lc 'SCRIPT', ` +
    `with nothing after the script and ${script}${interactive ? ' (-i reads rc files)' : ''}`
  );
}

/**
 * sh (dash) and zsh are not bash: only commands made of plain words, which the three shells read
 * alike, are taken. Expansions, globs (zsh's run code through qualifiers), `$'…'` and `$"…"` quoting
 * (dash reads them otherwise), `[[`, `((` and arithmetic are refused.
 */
export function readAlikeByShells(script: string, subcommands: Subcommand[], arithmetic: number): boolean {
  if (arithmetic > 0 || /\$['"]/.test(script)) return false;
  return subcommands.every(
    (sub) =>
      !sub.dynamic &&
      sub.words.every((word) => !word.dynamic) &&
      sub.redirects.every((redirect) => !redirect.dynamic) &&
      sub.assignments.every((assignment) => !assignment.dynamic) &&
      !['[[', '(('].includes(sub.argv[0] ?? ''),
  );
}
