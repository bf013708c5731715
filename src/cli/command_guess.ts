import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { closestName } from '../util/closest_name.js';
import { UsageError } from './errors.js';

/**
 * `lathe doctr` is a mistyped command, not a prompt: the first argument is taken for one only
 * when it is a bare lowercase word (no spaces, no digits, no dot or slash), is no command, is
 * within two edits of a command's name (one for words of four letters or fewer) or starts one,
 * and names no file or folder here. `help` is left out (`lathe hello` is a greeting), and
 * `lathe -- doctr` sends the word as a prompt whatever it looks like.
 */
export function checkCommandTypo(program: Command, argv: readonly string[]): void {
  const word = argv[0];
  if (word === undefined || !/^[a-z][a-z-]*$/.test(word) || existsSync(word)) return;
  const names = program.commands.flatMap((command) => [command.name(), ...command.aliases()]);
  if (names.includes(word)) return;
  const meant = closestName(
    word,
    names.filter((name) => name !== 'help'),
  );
  if (meant)
    throw new UsageError(
      `unknown command "${word}": did you mean lathe ${meant}? (to send it as a prompt: lathe -- ${word})`,
    );
}
