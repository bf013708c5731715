import { READ_ONLY_COMMANDS } from './commands/index.js';
import { parseShellCommand } from './parse.js';
import { shellCommandProblem } from './shell_script.js';
import type { ParsedCommand, Redirect, Subcommand, Word } from './types.js';
import { isHarmlessVariable } from './variables.js';

export interface ShellClassification {
  /** Every subcommand is on the read-only allowlist with its arguments checked, and nothing is written. */
  readOnly: boolean;
  subcommands: Subcommand[];
  /** Why it is not read-only (empty when it is): commands, options, redirection targets, variables. */
  reasons: string[];
}

/** Decides whether a shell command only reads. When in doubt it is not read-only. */
export async function classifyShellCommand(command: string): Promise<ShellClassification> {
  return classifyParsed(await parseShellCommand(command));
}

export function classifyParsed(parsed: ParsedCommand): ShellClassification {
  if (!parsed.ok) return { readOnly: false, subcommands: [], reasons: [`not parsed: ${parsed.reason}`] };
  const reasons: string[] = [];
  for (const expression of parsed.arithmetic) {
    if (!PLAIN_ARITHMETIC.test(expression))
      reasons.push(`arithmetic on names or expansions can run code: ${expression}`);
  }
  for (const sub of parsed.subcommands) reasons.push(...subcommandProblems(sub));
  return { readOnly: reasons.length === 0, subcommands: parsed.subcommands, reasons: [...new Set(reasons)] };
}

/** Numbers and operators only: no variable whose value bash would evaluate in turn. */
const PLAIN_ARITHMETIC = /^[\s\d+\-*/%<>=!&|^~?:(),]*$/;

/** Wrappers that change who runs the command or leave files behind. */
const WRAPPER_PROBLEMS: Record<string, string> = {
  sudo: 'sudo runs the command as another user',
  nohup: 'nohup may create nohup.out',
};

/** Whether one subcommand only reads (its arguments are then files it reads, never writes). */
export function isReadOnlySubcommand(sub: Subcommand): boolean {
  return subcommandProblems(sub).length === 0;
}

function subcommandProblems(sub: Subcommand): string[] {
  const problems: string[] = [];
  for (const redirect of sub.redirects) {
    const problem = redirectProblem(redirect);
    if (problem) problems.push(problem);
  }
  for (const assignment of sub.assignments) {
    if (!isHarmlessVariable(assignment.name))
      problems.push(`sets ${assignment.name}, which can change what runs`);
  }
  for (const wrapper of sub.wrappers) {
    const problem = WRAPPER_PROBLEMS[wrapper[0]];
    if (problem) problems.push(problem);
  }
  if (sub.argv.length > 0) {
    const problem = commandProblem(sub);
    if (problem) problems.push(problem);
  }
  return problems;
}

/** Writing is allowed only to these; any other target may be a file. */
const DISCARD_TARGETS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);

function redirectProblem(redirect: Redirect): string | undefined {
  const { op, target } = redirect;
  switch (op) {
    case '<':
    case '<<':
    case '<<-':
    case '<<<':
    case '<&':
    case '<&-':
    case '>&-':
      return undefined;
    case '>&':
      // `2>&1` duplicates a descriptor; `>& file` writes the file.
      if (!redirect.dynamic && /^(\d+-?|-)$/.test(target)) return undefined;
      break;
    case '>':
    case '>>':
    case '>|':
    case '&>':
    case '&>>':
      break;
    default:
      return `redirection ${op} is not understood`;
  }
  if (!redirect.dynamic && DISCARD_TARGETS.has(target)) return undefined;
  const shown = redirect.dynamic ? `${target} (a name only known at run time)` : target;
  return `writes to ${shown} (${redirect.fd ?? ''}${op})`;
}

/** The files a subcommand's redirections write (or may write: targets only known at run time). */
export function writtenTargets(sub: Subcommand): string[] {
  return sub.redirects.filter((r) => redirectProblem(r) !== undefined).map((r) => r.target);
}

const INPUT_PLACEHOLDER: Word = { value: '(words from xargs input)', dynamic: true, literalPrefix: '' };

function commandProblem(sub: Subcommand): string | undefined {
  const name = sub.argv[0];
  if (sub.dynamic) return `the command name is only known at run time: ${name}`;
  const check = READ_ONLY_COMMANDS.get(name);
  if (!check) {
    const shell = shellCommandProblem(sub);
    if (shell) return shell;
    return name.includes('/')
      ? `runs a program by path: ${name}`
      : `${JSON.stringify(name)} is not on the read-only allowlist`;
  }
  const args = sub.argsFromInput ? [...sub.words.slice(1), INPUT_PLACEHOLDER] : sub.words.slice(1);
  return check(args);
}
