import { type CommandCheck, parseStrict } from '../options.js';

/**
 * -f (a program file), -i/-l (include or load extensions, among them inplace), -o/-p/-d (write
 * profile, pretty-print or variable dumps to files) and -e/--source are deliberately absent.
 */
const AWK_OPTIONS = {
  flags: 'bcMNnPrsS',
  valued: 'Fv',
  longFlags: [
    '--characters-as-bytes',
    '--traditional',
    '--bignum',
    '--use-lc-numeric',
    '--non-decimal-data',
    '--posix',
    '--re-interval',
    '--no-optimize',
    '--sandbox',
  ],
  longValued: ['--field-separator', '--assign'],
};

export const checkAwk: CommandCheck = (args) => {
  const parsed = parseStrict(args, AWK_OPTIONS);
  if ('error' in parsed) return `awk: ${parsed.error}`;
  const program = parsed.operands[0];
  if (!program) return 'awk: no program';
  if (program.dynamic) return 'awk: the program is only known at run time';
  const problem = awkProgramProblem(program.value);
  return problem ? `awk: ${problem}` : undefined;
};

/**
 * awk can write files (`print > "f"`, `>>`), run commands (`system()`, `print | "cmd"`, `"cmd" | getline`,
 * `|&`) and load code (`@load`, `@include`, indirect `@f()` calls). Without a real awk parser any `>`,
 * any `|` that is not part of `||`, any `@` and the word `system` are refused, even inside strings or
 * comparisons: a false "not read-only" only costs a confirmation.
 */
export function awkProgramProblem(program: string): string | undefined {
  if (program.includes('>')) return 'the program contains ">" (output redirection?)';
  if (program.replaceAll('||', '').includes('|'))
    return 'the program contains "|" (a pipe to or from a command?)';
  if (program.includes('@')) return 'the program contains "@" (extension loading or an indirect call?)';
  if (/system/i.test(program)) return 'the program calls system()';
  return undefined;
}
