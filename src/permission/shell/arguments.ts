import { homedir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import type { Subcommand, Word } from './types.js';

/** A file or folder a command names, as far as its words tell before it runs. */
export interface NamedPath {
  /** The word as written (for messages). */
  text: string;
  /**
   * Where it points, resolved against each folder the command may be in (the call's folder and any
   * `cd` before it). For a glob, the folder its fixed part names. Empty when nothing is known.
   */
  absolute: string[];
  /** Only the folder is known (a glob): deny rules cannot be matched, the folder can be placed. */
  partial: boolean;
  /** Nothing is known (a variable, a substitution, words from xargs): it may point anywhere. */
  unknown: boolean;
  /** Written (a redirection, or an argument of a command that is not read-only), or only read. */
  access: 'read' | 'write';
  /** Index of the subcommand that names it. */
  subcommand: number;
}

/** Commands whose arguments are never files: text to print, names to look up, numbers. */
const NO_FILE_ARGUMENTS = new Set(
  (
    'echo printf true false : seq expr factor sleep exit return break continue which whereis type command ' +
    'hostname date id whoami groups uname arch nproc uptime tty locale getconf set read basename dirname ' +
    'numfmt printenv ps pgrep free cal pwd env export declare local readonly typeset unset'
  ).split(' '),
);

/** Commands whose first operand is a pattern or program unless an option gives it. */
const PATTERN_FIRST: Record<string, RegExp> = {
  grep: /^(-[^-]*[ef]|--(regexp|file)\b)/,
  egrep: /^(-[^-]*[ef]|--(regexp|file)\b)/,
  fgrep: /^(-[^-]*[ef]|--(regexp|file)\b)/,
  rg: /^(-[^-]*[ef]|--(regexp|file|files|type-list)\b)/,
  ag: /^(-[^-]*f|--file-search-regex\b)/,
  sed: /^(-[^-]*[ef]|--(expression|file)\b)/,
  awk: /^(-[^-]*f|--file\b)/,
  gawk: /^(-[^-]*f|--file\b)/,
  mawk: /^(-[^-]*f|--file\b)/,
  nawk: /^(-[^-]*f|--file\b)/,
  jq: /^(--from-file\b|-[^-]*f)/,
  yq: /^(--from-file\b)/,
};

/** Options whose value is a name, pattern or number, not a file (`find . -name "$p"`). */
const VALUE_NOT_FILE: Record<string, Set<string>> = {
  find: new Set(
    (
      '-name -iname -path -ipath -wholename -iwholename -regex -iregex -lname -ilname -type -xtype -perm ' +
      '-size -user -group -uid -gid -mtime -atime -ctime -mmin -amin -cmin -used -inum -links -maxdepth ' +
      '-mindepth -fstype -printf -regextype -context'
    ).split(' '),
  ),
};

/** Devices that hold nothing of anyone's: output thrown away, zeros, randomness, a descriptor. */
const NOT_FILES = /^\/dev\/(null|zero|full|random|urandom|stdout|stderr|stdin|tty|fd\/\d+)$/;

const READ_REDIRECTS = new Set(['<']);
const WRITE_REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>']);

interface Place {
  /** Folders relative paths resolve against; undefined once a `cd` went somewhere unknown. */
  cwds: string[] | undefined;
  /** Values of variables set in the command itself (loop variables, assignments), by name. */
  variables: Map<string, string[]>;
}

export interface CommandPlaces {
  paths: NamedPath[];
  /** Per subcommand, the folders it may run in (after any `cd` before it); undefined when unknown. */
  folders: Array<string[] | undefined>;
}

/**
 * The files a parsed command names: its arguments (options' `=value` too), its redirections, and
 * the folders of `cd`. `isReadOnly` says per subcommand whether its arguments are only read.
 */
export function commandPlaces(
  subcommands: Subcommand[],
  cwd: string,
  isReadOnly: (sub: Subcommand) => boolean,
): CommandPlaces {
  const place: Place = { cwds: [cwd], variables: knownVariables(subcommands) };
  const found: NamedPath[] = [];
  const folders: CommandPlaces['folders'] = [];
  subcommands.forEach((sub, index) => {
    folders.push(place.cwds && [...place.cwds]);
    const access = isReadOnly(sub) ? 'read' : 'write';
    for (const redirect of sub.redirects) {
      const word: Word = {
        value: redirect.target,
        dynamic: redirect.dynamic,
        literalPrefix: redirect.dynamic ? '' : redirect.target,
      };
      if (READ_REDIRECTS.has(redirect.op)) found.push(...wordPaths(word, 'read', index, place));
      else if (
        WRITE_REDIRECTS.has(redirect.op) ||
        (redirect.op === '>&' && !/^(\d+-?|-)$/.test(redirect.target))
      )
        found.push(...wordPaths(word, 'write', index, place));
    }
    const name = sub.argv[0];
    if (name === undefined || sub.dynamic || NO_FILE_ARGUMENTS.has(name)) return;
    for (const word of argumentWords(sub)) found.push(...wordPaths(word, access, index, place));
    if (sub.argsFromInput) found.push(unknownPath('(words from xargs input)', access, index));
    if (name === 'cd') changeFolder(sub, place, found, index);
  });
  return { paths: found, folders };
}

/** The words of a subcommand that may name files: operands and the values of `--option=value`. */
function argumentWords(sub: Subcommand): Word[] {
  const args = sub.words.slice(1);
  const patternGiven = PATTERN_FIRST[sub.argv[0]];
  let skipPattern = patternGiven !== undefined && !args.some((w) => !w.dynamic && patternGiven.test(w.value));
  const words: Word[] = [];
  const notFiles = VALUE_NOT_FILE[sub.argv[0]];
  let endOfOptions = false;
  for (const [i, word] of args.entries()) {
    const previous = args[i - 1];
    if (notFiles && previous && !previous.dynamic && notFiles.has(previous.value)) continue;
    if (!word.dynamic && !endOfOptions) {
      if (word.value === '--') {
        endOfOptions = true;
        continue;
      }
      if (word.value === '-') continue;
      if (word.value.startsWith('-')) {
        const eq = word.value.indexOf('=');
        if (eq > 0 && eq < word.value.length - 1) words.push(plainWord(word.value.slice(eq + 1)));
        continue;
      }
    }
    if (skipPattern) {
      skipPattern = false;
      continue;
    }
    words.push(word);
    // `git show HEAD:.env` reads .env as the commit has it.
    if (sub.argv[0] === 'git' && !word.dynamic && /^[^:/\s]*:[^:]/.test(word.value))
      words.push(plainWord(word.value.slice(word.value.indexOf(':') + 1)));
  }
  return words;
}

/** `cd DIR`: later relative paths may resolve against DIR (and the folder before it, to be safe). */
function changeFolder(sub: Subcommand, place: Place, found: NamedPath[], index: number): void {
  const target = sub.words[1];
  if (target === undefined) {
    found.push({ ...known('cd', [homedir()], 'read', index), text: '~ (cd)' });
    place.cwds?.push(homedir());
    return;
  }
  const paths = found.filter((p) => p.subcommand === index && !p.unknown && !p.partial);
  if (target.dynamic || target.value === '-' || paths.length === 0 || place.cwds === undefined) {
    place.cwds = undefined;
    return;
  }
  place.cwds = [...new Set([...place.cwds, ...paths.flatMap((p) => p.absolute)])];
}

function wordPaths(word: Word, access: NamedPath['access'], index: number, place: Place): NamedPath[] {
  if (!word.dynamic) {
    if (word.value === '' || NOT_FILES.test(word.value)) return [];
    return [known(word.value, resolveAll(word.value, place), access, index)];
  }
  // `<(…)` is replaced by a /dev/fd path.
  if (/^[<>]\(/.test(word.value)) return [];
  const variable = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?(\/.*)?$/.exec(word.value);
  if (variable) {
    const values = place.variables.get(variable[1]);
    if (!values) return [unknownPath(word.value, access, index)];
    return values.flatMap((value) =>
      wordPaths(bareGlob(`${value}${variable[2] ?? ''}`), access, index, {
        ...place,
        variables: new Map(),
      }),
    );
  }
  return [globPath(word, access, index, place)];
}

/** A glob or a tilde: its fixed part places it; anything that may hold `..` or an expansion does not. */
function globPath(word: Word, access: NamedPath['access'], index: number, place: Place): NamedPath {
  let value = word.value;
  if (value === '~' || value.startsWith('~/')) value = homedir() + value.slice(1);
  else if (value.startsWith('~')) return unknownPath(word.value, access, index);
  const dynamicAt = value.search(/[*?[{$`]/);
  const fixed = dynamicAt < 0 ? value : value.slice(0, dynamicAt);
  const rest = dynamicAt < 0 ? '' : value.slice(dynamicAt);
  if (/[$`{]/.test(rest) || /(^|\/)\.\.(\/|$)/.test(rest)) return unknownPath(word.value, access, index);
  if (rest === '') return known(word.value, resolveAll(value, place), access, index);
  const folder = fixed.includes('/') ? fixed.slice(0, fixed.lastIndexOf('/') + 1) || '/' : '.';
  return { ...known(word.value, resolveAll(folder, place), access, index), partial: true };
}

function resolveAll(path: string, place: Place): string[] {
  if (isAbsolute(path)) return [resolve(path)];
  if (place.cwds === undefined) return [];
  return place.cwds.map((cwd) => resolve(cwd, path));
}

function known(text: string, absolute: string[], access: NamedPath['access'], index: number): NamedPath {
  return { text, absolute, partial: false, unknown: absolute.length === 0, access, subcommand: index };
}

function unknownPath(text: string, access: NamedPath['access'], index: number): NamedPath {
  return { text, absolute: [], partial: false, unknown: true, access, subcommand: index };
}

function plainWord(value: string): Word {
  return { value, dynamic: false, literalPrefix: value };
}

/** A value from a loop list or assignment, judged as an unquoted word would be. */
function bareGlob(value: string): Word {
  const dynamicAt = value.search(/[*?[{$`~]/);
  return dynamicAt < 0
    ? plainWord(value)
    : { value, dynamic: true, literalPrefix: value.slice(0, dynamicAt) };
}

/**
 * Variables the command sets itself (`for f in a b`, `x=y`), with every value they take. A name
 * set from something only known at run time is left out, so its uses count as unknown.
 */
function knownVariables(subcommands: Subcommand[]): Map<string, string[]> {
  const values = new Map<string, string[]>();
  const unknown = new Set<string>();
  for (const sub of subcommands) {
    for (const assignment of sub.assignments) {
      const { name, value } = assignment;
      if (/[$`]/.test(value) || (assignment.dynamic && !/^[\w./*?[\]\s-]*$/.test(value))) unknown.add(name);
      else values.set(name, [...(values.get(name) ?? []), ...value.split(/\s+/).filter(Boolean)]);
    }
    // `read` sets its variables from input.
    if (sub.argv[0] === 'read') for (const word of sub.words.slice(1)) unknown.add(word.value);
  }
  for (const name of unknown) values.delete(name);
  return values;
}
