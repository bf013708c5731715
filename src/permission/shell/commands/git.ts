import {
  anyArguments,
  type CommandCheck,
  dynamicOptionReason,
  findForbiddenOption,
  hasOption,
  mayBeOption,
  names,
  parseStrict,
  type StrictSpec,
} from '../options.js';
import type { Word } from '../types.js';

/** Global options before the subcommand that take the next word as their value. */
const GLOBAL_VALUED = new Set(['-C', '--git-dir', '--work-tree', '--namespace']);
const GLOBAL_FLAGS = new Set(
  names(
    '-P --no-pager -p --paginate --bare --no-replace-objects ' +
      '--literal-pathspecs --glob-pathspecs --noglob-pathspecs --icase-pathspecs --no-optional-locks',
  ),
);

/**
 * `git [global options] SUBCOMMAND …`. `-c`, `--config-env` and `--exec-path` are refused: a config
 * override such as `core.pager`, `core.fsmonitor` or `diff.external` runs any program.
 */
export const checkGit: CommandCheck = (args) => {
  let i = 0;
  for (; i < args.length && mayBeOption(args[i]); i++) {
    const word = args[i];
    if (word.dynamic) return dynamicOptionReason(word);
    const name = word.value.split('=')[0];
    if (word.value === '--version' && args.length === 1) return undefined;
    if (GLOBAL_VALUED.has(word.value)) i++;
    else if (!(GLOBAL_VALUED.has(name) && name.startsWith('--')) && !GLOBAL_FLAGS.has(word.value)) {
      return `git option ${word.value} is not allowed (it can change what git runs)`;
    }
  }
  const subcommand = args[i];
  if (!subcommand) return 'git without a subcommand';
  if (subcommand.dynamic) return 'the git subcommand is only known at run time';
  const check = GIT_SUBCOMMANDS[subcommand.value];
  if (!check) return `git ${subcommand.value} is not read-only`;
  const problem = check(args.slice(i + 1));
  return problem ? `git ${subcommand.value}: ${problem}` : undefined;
};

/** `--output` writes the diff or log to a file; `--ext-diff` runs the configured external diff. */
const noOutputFile: CommandCheck = (args) => findForbiddenOption(args, { long: ['output', 'ext-diff'] });

/** Listing options shared by `git branch` and `git tag`; anything else (delete, move, create…) is refused. */
const LIST_LONG_VALUED = ['--sort', '--format'];
const LIST_LONG_FLAGS = names('--list --ignore-case --no-color --no-column --omit-empty --no-abbrev');
/** Filters that put both commands in list mode; their commit is optional, so a following word may be one. */
const LIST_FILTERS = ['--contains', '--no-contains', '--merged', '--no-merged', '--points-at'];
const LIST_LONG_OPTIONAL = ['--color', '--column', '--abbrev', ...LIST_FILTERS];

/** Lists when no name is given or list mode is on (then names are patterns); otherwise it creates one. */
function listing(spec: StrictSpec, listModeOptions: string[]): CommandCheck {
  return (args) => {
    const parsed = parseStrict(args, spec);
    if ('error' in parsed) return parsed.error;
    if (parsed.operands.length === 0 || hasOption(parsed.options, ...listModeOptions)) return undefined;
    return `a name without --list creates it (${parsed.operands[0].value})`;
  };
}

const checkBranch = listing(
  {
    flags: 'arlvi',
    longFlags: [...LIST_LONG_FLAGS, '--all', '--remotes', '--verbose', '--show-current'],
    longValued: LIST_LONG_VALUED,
    longOptional: LIST_LONG_OPTIONAL,
    optionsAnywhere: true,
  },
  ['-l', '--list', ...LIST_FILTERS],
);

const checkTag = listing(
  {
    flags: 'li',
    valueAttached: 'n',
    longFlags: LIST_LONG_FLAGS,
    longValued: LIST_LONG_VALUED,
    longOptional: LIST_LONG_OPTIONAL,
    optionsAnywhere: true,
  },
  ['-l', '--list', '-n', ...LIST_FILTERS],
);

const checkRemote: CommandCheck = (args) => {
  const [first, ...rest] = args.map((word) => (word.dynamic ? undefined : word.value));
  if (first === undefined && args.length === 0) return undefined;
  if ((first === '-v' || first === '--verbose') && rest.length === 0) return undefined;
  if (first === 'show' || first === 'get-url') {
    const allowed = first === 'show' ? ['-n'] : ['--push', '--all'];
    const extra = args.slice(1).find((word) => mayBeOption(word) && !allowed.includes(word.value));
    return extra ? `option ${extra.value} is not allowed` : undefined;
  }
  return 'only listing remotes is read-only';
};

const CONFIG_READ_MODES = ['--get', '--get-all', '--get-regexp', '--get-urlmatch', '--list', '-l'];

/** Reads only: an explicit get/list mode, or the `get` / `list` subcommands, or one dotted name. */
const checkConfig: CommandCheck = (args) => {
  const parsed = parseStrict(args, {
    flags: 'lz',
    valued: 'f',
    longFlags: [
      ...CONFIG_READ_MODES.filter((mode) => mode.startsWith('--')),
      ...names(
        '--global --system --local --worktree --show-origin --show-scope --name-only --null ' +
          '--bool --int --bool-or-int --path --expiry-date --includes --no-includes --all --regexp --show-names',
      ),
    ],
    longValued: ['--file', '--blob', '--type', '--default', '--value', '--url'],
    optionsAnywhere: true,
  });
  if ('error' in parsed) return parsed.error;
  if (parsed.options.some((option) => CONFIG_READ_MODES.includes(option.name))) return undefined;
  const [first] = parsed.operands;
  if (first && !first.dynamic && (first.value === 'get' || first.value === 'list')) return undefined;
  if (parsed.operands.length === 1 && !first.dynamic && /^[\w-]+\.\S+$/.test(first.value)) return undefined;
  return 'only reading configuration is read-only';
};

/** `reflog` shows by default (with log's options, --output among them); `expire` and `delete` rewrite it. */
const checkReflog: CommandCheck = (args) => {
  const first: Word | undefined = args[0];
  if (
    !first ||
    (!first.dynamic && ['show', 'exists'].includes(first.value)) ||
    (!first.dynamic && first.value.startsWith('-'))
  ) {
    return noOutputFile(args);
  }
  return 'only showing the reflog is read-only';
};

/** `stash list` / `stash show` and `worktree list` only read; their other forms change things. */
function onlyActions(...actions: string[]): CommandCheck {
  return (args) => {
    const first = args[0];
    return first && !first.dynamic && actions.includes(first.value)
      ? noOutputFile(args.slice(1))
      : `only ${actions.join(' / ')}`;
  };
}

const GIT_SUBCOMMANDS: Record<string, CommandCheck> = {
  status: anyArguments,
  log: noOutputFile,
  show: noOutputFile,
  diff: noOutputFile,
  'diff-tree': noOutputFile,
  'diff-index': noOutputFile,
  'diff-files': noOutputFile,
  whatchanged: noOutputFile,
  // These read log or blame options, --output among them.
  shortlog: noOutputFile,
  blame: noOutputFile,
  annotate: noOutputFile,
  branch: checkBranch,
  tag: checkTag,
  remote: checkRemote,
  config: checkConfig,
  reflog: checkReflog,
  stash: onlyActions('list', 'show'),
  worktree: onlyActions('list'),
  // -O / --open-files-in-pager runs the given program on the matches.
  grep: (args) => findForbiddenOption(args, { short: 'O', long: ['open-files-in-pager'] }),
  'rev-parse': anyArguments,
  'rev-list': noOutputFile,
  'ls-files': anyArguments,
  'ls-tree': anyArguments,
  'cat-file': anyArguments,
  describe: anyArguments,
  'show-ref': anyArguments,
  'for-each-ref': anyArguments,
  'merge-base': anyArguments,
  'name-rev': anyArguments,
  'count-objects': anyArguments,
  'check-ignore': anyArguments,
  'check-attr': anyArguments,
  cherry: anyArguments,
  'show-branch': anyArguments,
  var: anyArguments,
  version: anyArguments,
};
