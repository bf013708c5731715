import {
  type CommandCheck,
  dynamicOptionReason,
  findForbiddenOption,
  mayBeOption,
  names,
  parseStrict,
  tooManyOperands,
} from '../options.js';
import type { Word } from '../types.js';

/** Options that write or run something, per command; everything else these commands do is reading. */
function forbidding(short: string, long: string[]): CommandCheck {
  return (args) => findForbiddenOption(args, { short, long });
}

/** `uniq IN OUT` writes OUT, so at most one operand. */
const checkUniq: CommandCheck = (args) => {
  const parsed = parseStrict(args, {
    flags: 'cdDiuz',
    valued: 'fsw',
    longFlags: ['--count', '--repeated', '--ignore-case', '--unique', '--zero-terminated'],
    longValued: ['--skip-fields', '--skip-chars', '--check-chars'],
    longOptional: ['--all-repeated', '--group'],
  });
  if ('error' in parsed) return `uniq: ${parsed.error}`;
  return tooManyOperands(parsed.operands, 1);
};

const XXD_FLAGS = new Set(
  names(
    '-a -autoskip -b -bits -C -capitalize -d -e -E -EBCDIC -i -include -p -ps -postscript -plain -r -revert -u',
  ),
);
const XXD_VALUED = /^-(c|cols|g|groupsize|l|len|o|offset|s|seek|n|name|R)$/;
const XXD_ATTACHED = /^-[cglosn][-+]?[0-9a-fA-Fx]+$/;

/** `xxd IN OUT` writes OUT. xxd reads its options by hand, only before the first operand. */
const checkXxd: CommandCheck = (args) => {
  let i = 0;
  for (; i < args.length; i++) {
    const word = args[i];
    if (!mayBeOption(word)) break;
    if (word.dynamic) return dynamicOptionReason(word);
    if (word.value === '--') {
      i++;
      break;
    }
    if (XXD_VALUED.test(word.value)) i++;
    else if (!XXD_FLAGS.has(word.value) && !XXD_ATTACHED.test(word.value))
      return `xxd option ${word.value} is not known`;
  }
  return tooManyOperands(args.slice(i), 1);
};

const FIND_FORBIDDEN = new Set([
  '-delete',
  '-exec',
  '-execdir',
  '-ok',
  '-okdir',
  '-fprint',
  '-fprint0',
  '-fprintf',
  '-fls',
]);
/** Tests whose next word is their value, so a dynamic word there is not a predicate. */
const FIND_VALUED = new Set(
  (
    '-name -iname -path -ipath -wholename -iwholename -regex -iregex -lname -ilname -type -xtype -newer -anewer ' +
    '-cnewer -perm -size -user -group -uid -gid -mtime -atime -ctime -mmin -amin -cmin -used -inum -links ' +
    '-samefile -maxdepth -mindepth -fstype -printf -regextype -context'
  ).split(' '),
);

const checkFind: CommandCheck = (args) => {
  for (let i = 0; i < args.length; i++) {
    const word = args[i];
    if (word.dynamic) {
      const previous: Word | undefined = args[i - 1];
      const isValue = previous && !previous.dynamic && FIND_VALUED.has(previous.value);
      if (mayBeOption(word) && !isValue) return dynamicOptionReason(word);
    } else if (FIND_FORBIDDEN.has(word.value)) {
      return `find ${word.value} ${word.value === '-delete' ? 'deletes files' : 'runs commands or writes files'}`;
    }
  }
  return undefined;
};

/** BSD and macOS base64 write the output file of -o / --output (GNU rejects them); -i is an input there. */
const base64Check = forbidding('o', ['output']);

export const TEXT_CHECKS: Record<string, CommandCheck> = {
  // -T writes temporary files into the folder it names; --compress-program runs a program.
  sort: forbidding('oT', ['output', 'compress-program', 'temporary-directory']),
  uniq: checkUniq,
  xxd: checkXxd,
  find: checkFind,
  base64: base64Check,
  base32: base64Check,
  diff: forbidding('', ['output']),
  // rg --pre (and --pre-glob, which only serves it), --hostname-bin and -z (decompression programs)
  // run programs; ag --pager and fd -x/-X run commands.
  rg: forbidding('z', ['pre', 'pre-glob', 'hostname-bin', 'search-zip']),
  ag: forbidding('', ['pager']),
  fd: forbidding('xX', ['exec', 'exec-batch']),
  fdfind: forbidding('xX', ['exec', 'exec-batch']),
  tree: forbidding('oR', ['output']),
  // yq -i edits in place; -s writes one file per document.
  yq: forbidding('is', ['inplace', 'in-place', 'split-exp']),
};
