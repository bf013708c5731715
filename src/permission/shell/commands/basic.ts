import {
  anyArguments,
  type CommandCheck,
  dynamicOptionReason,
  findForbiddenOption,
  hasOption,
  mayBeOption,
  names,
  parseStrict,
} from '../options.js';
import type { Word } from '../types.js';
import { isHarmlessVariable } from '../variables.js';

/** Commands that only read or print, whatever their arguments (none of their options write or run anything). */
const READ_ONLY_ANY_ARGUMENTS = [
  // files and text
  'ls dir cat tac head tail wc nl od hexdump strings cut paste join fold fmt column expand unexpand rev tr',
  'comm cmp grep egrep fgrep jq stat du df basename dirname realpath readlink pathchk',
  'md5sum sha1sum sha224sum sha256sum sha384sum sha512sum b2sum cksum sum numfmt seq expr factor tsort',
  // the system and the shell
  'pwd echo true false : whoami id groups uname arch nproc uptime tty locale getconf which whereis type',
  'printenv ps pgrep free sleep cd cal',
  // `[[ … ]]` and `(( … ))` are judged by the parser (their arithmetic and operands)
  '[[ ((',
].flatMap((line) => line.split(' '));

/** `tool --version` and nothing else: running anything more may execute project code. */
const VERSION_ONLY: Record<string, string[]> = {
  node: ['--version', '-v'],
  python: ['--version', '-V'],
  python3: ['--version', '-V'],
  pip: ['--version', '-V'],
  pip3: ['--version', '-V'],
  ruby: ['--version', '-v'],
  perl: ['--version', '-v'],
  java: ['--version', '-version'],
  javac: ['--version', '-version'],
  deno: ['--version', '-V'],
  bun: ['--version', '-v'],
  tsc: ['--version', '-v'],
  gcc: ['--version'],
  'g++': ['--version'],
  clang: ['--version'],
  make: ['--version'],
  cmake: ['--version'],
  docker: ['--version', '-v'],
};

function versionOnly(allowed: string[]): CommandCheck {
  return (args) =>
    args.length === 1 && !args[0].dynamic && allowed.includes(args[0].value)
      ? undefined
      : 'only --version is read-only';
}

const isInteger = (word: Word | undefined) =>
  word !== undefined && !word.dynamic && /^-?\d+$/.test(word.value);

/** `exit`, `return`, `break`, `continue`: at most a literal number. */
const numberArgument: CommandCheck = (args) =>
  args.length === 0 || (args.length === 1 && isInteger(args[0]))
    ? undefined
    : 'expects at most one literal number';

/** The `printf` builtin's `-v NAME` assigns instead of printing; it only parses options first. */
const checkPrintf: CommandCheck = (args) => {
  const [first] = args;
  if (!first || first.value === '--' || !mayBeOption(first)) return undefined;
  return first.dynamic ? dynamicOptionReason(first) : 'printf options (-v assigns a variable)';
};

/** Without operands `hostname` prints; with one (or -F/-b) it sets the host name. */
const HOSTNAME_PRINT_OPTIONS = names(
  '-f --fqdn --long -s --short -i --ip-address -I --all-ip-addresses -d --domain -A --all-fqdns -a --alias',
);
const checkHostname: CommandCheck = (args) =>
  args.every((word) => !word.dynamic && HOSTNAME_PRINT_OPTIONS.includes(word.value))
    ? undefined
    : 'hostname with an operand sets the host name';

/** An operand that does not start with `+` sets the clock (GNU and BSD alike), as does -s. */
const checkDate: CommandCheck = (args) => {
  const parsed = parseStrict(args, {
    flags: 'uRjn',
    valued: 'dfrv',
    valueAttached: 'I',
    longFlags: ['--utc', '--universal', '--rfc-email', '--rfc-2822', '--debug'],
    longValued: ['--date', '--file', '--reference', '--rfc-3339'],
    longOptional: ['--iso-8601'],
  });
  if ('error' in parsed) return `date: ${parsed.error}`;
  const setter = parsed.operands.find((word) => !word.literalPrefix.startsWith('+'));
  return setter ? `date ${setter.value} sets the clock` : undefined;
};

/** `env` with no command prints the environment (a command after it was peeled off by the parser). */
const checkEnv: CommandCheck = (args) => {
  const parsed = parseStrict(args, {
    flags: 'i0',
    valued: 'u',
    longFlags: ['--ignore-environment', '--null'],
    longValued: ['--unset'],
  });
  if ('error' in parsed) return `env: ${parsed.error}`;
  const unsafe = parsed.operands.find((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word.literalPrefix));
  return unsafe ? `env runs ${unsafe.value}` : undefined;
};

/** `command -v NAME` / `command -V NAME` only look names up; other forms were peeled off as wrappers. */
const checkCommandLookup: CommandCheck = (args) => {
  const parsed = parseStrict(args, { flags: 'pvV' });
  if ('error' in parsed) return `command: ${parsed.error}`;
  return hasOption(parsed.options, '-v', '-V') ? undefined : 'command runs its argument';
};

/** `test` / `[` as a command: `-v` and `-eq`-style operands are arithmetic; dynamic words may be operators. */
const checkTest: CommandCheck = (args) => {
  const words = args.at(-1)?.value === ']' ? args.slice(0, -1) : args;
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (word.dynamic) return `test on ${word.value}, only known at run time`;
    if (word.value === '-v' || word.value === '-R') return 'test -v evaluates array subscripts';
    if (/^-(eq|ne|lt|le|gt|ge)$/.test(word.value) && !(isInteger(words[i - 1]) && isInteger(words[i + 1]))) {
      return `test ${word.value} evaluates its operands as arithmetic`;
    }
  }
  return undefined;
};

/** `read` assigns the variables it names (a subscript in a name is evaluated, so names must be plain). */
const checkRead: CommandCheck = (args) => {
  const parsed = parseStrict(args, { flags: 'rse', valued: 'adnNptu' });
  if ('error' in parsed) return `read: ${parsed.error}`;
  for (const option of parsed.options) {
    const value = option.value;
    const numeric = ['-n', '-N', '-t', '-u'].includes(option.name);
    if (numeric && value && !/^\d+(\.\d+)?$/.test(value.value)) return `read ${option.name} needs a number`;
  }
  const targets = [
    ...parsed.options.filter((option) => option.name === '-a').map((option) => option.value!),
    ...parsed.operands,
  ];
  const bad = targets.find(
    (word) => word.dynamic || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(word.value) || !isHarmlessVariable(word.value),
  );
  return bad ? `read sets ${bad.value}` : undefined;
};

/** `set` for the usual strictness options only (`set -euo pipefail`); other forms change the shell. */
const SET_OPTION_NAMES = ['pipefail', 'errexit', 'nounset', 'xtrace', 'verbose'];
const checkSet: CommandCheck = (args) =>
  args.length > 0 &&
  args.every(
    (word) => !word.dynamic && (/^[-+][euxv]*o?$/.test(word.value) || SET_OPTION_NAMES.includes(word.value)),
  )
    ? undefined
    : 'only set -e/-u/-x/-o pipefail';

/** `less` / `more` on files: options could run commands (`+!cmd`) or write logs (`-o`). */
const checkPager: CommandCheck = (args) =>
  args.every((word) => word.literalPrefix !== '' && !/^[-+]/.test(word.literalPrefix))
    ? undefined
    : 'pager options can run commands or write files';

export const BASIC_CHECKS: Record<string, CommandCheck> = {
  ...Object.fromEntries(READ_ONLY_ANY_ARGUMENTS.map((name) => [name, anyArguments])),
  ...Object.fromEntries(Object.entries(VERSION_ONLY).map(([name, allowed]) => [name, versionOnly(allowed)])),
  exit: numberArgument,
  return: numberArgument,
  break: numberArgument,
  continue: numberArgument,
  printf: checkPrintf,
  hostname: checkHostname,
  date: checkDate,
  env: checkEnv,
  command: checkCommandLookup,
  test: checkTest,
  '[': checkTest,
  read: checkRead,
  set: checkSet,
  less: checkPager,
  more: checkPager,
  // -C compiles a magic file; -z / -Z look inside compressed files, with decompression programs for some.
  file: (args) =>
    findForbiddenOption(args, { short: 'CzZ', long: ['compile', 'uncompress', 'uncompress-noreport'] }),
};
