import { type CollectedRun, collectProcess } from './collect_process.js';

/**
 * Configuration that stops git from running programs a repository names: a command (or a
 * cloned repository) can write `.git/config`, and lathe's own git calls run outside the sandbox.
 */
const SAFE_CONFIG = ['core.fsmonitor=false', 'core.hooksPath=/dev/null', 'core.pager=cat'];
const GIT_NOT_FOUND = 'lathe: git is not on PATH';
/** What turns a filter driver off: its programs emptied, and its failure no error. */
const FILTER_OFF = [
  ['clean', ''],
  ['smudge', ''],
  ['process', ''],
  ['required', 'false'],
] as const;

/** `git` arguments that run `args` with repository-controlled programs turned off. */
export function safeGitArgs(args: readonly string[], filterDrivers: readonly string[] = []): string[] {
  const config = [...SAFE_CONFIG];
  // A filter driver (`.gitattributes` + `filter.<name>.clean`/`process`) runs during `git status`.
  // `-c` for a git before 2.31; `filterDriversOff` for a name holding `=`, which `-c` cannot say.
  for (const name of filterDrivers)
    for (const [key, value] of FILTER_OFF) config.push(`filter.${name}.${key}=${value}`);
  const [subcommand, ...rest] = args;
  // A diff driver's `command` (external diff) and `textconv` are programs the configuration names.
  const noDrivers = ['diff', 'log', 'show'].includes(subcommand ?? '')
    ? ['--no-ext-diff', '--no-textconv']
    : [];
  return ['--no-pager', ...config.flatMap((c) => ['-c', c]), subcommand, ...noDrivers, ...rest].filter(
    (a): a is string => a !== undefined,
  );
}

/** The environment of lathe's git calls: no pager, no prompts, no optional index lock. */
export function safeGitEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...env, GIT_PAGER: 'cat', PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' };
}

/**
 * The filter drivers turned off through git's environment (GIT_CONFIG_COUNT, git 2.31 and
 * later), after the entries the environment already holds: there a driver's name may hold any
 * character, `=` included.
 */
function filterDriversOff(env: NodeJS.ProcessEnv, drivers: readonly string[]): NodeJS.ProcessEnv {
  if (drivers.length === 0) return env;
  const out = { ...env };
  let count = Number(env.GIT_CONFIG_COUNT) || 0;
  for (const name of drivers)
    for (const [key, value] of FILTER_OFF) {
      out[`GIT_CONFIG_KEY_${count}`] = `filter.${name}.${key}`;
      out[`GIT_CONFIG_VALUE_${count}`] = value;
      count++;
    }
  out.GIT_CONFIG_COUNT = String(count);
  return out;
}

/** What one of lathe's git commands ended with: its exit status (null if it did not run) and output. */
export interface GitRun {
  status: number | null;
  stdout: string;
  stderr: string;
  /** Set when git could not be started (ENOENT: git is not installed) or was stopped. */
  error?: NodeJS.ErrnoException;
}

function gitRunOf(run: CollectedRun): GitRun {
  return {
    status: run.error ? null : run.code,
    stdout: run.stdout,
    stderr: run.stderr,
    ...(run.error ? { error: run.error } : {}),
  };
}

/** Runs git without waiting on it: the event loop (and so lathe's start-up) goes on meanwhile. */
async function git(
  args: readonly string[],
  cwd: string,
  timeoutMs: number,
  env?: NodeJS.ProcessEnv,
): Promise<GitRun> {
  return gitRunOf(await collectProcess(['git', ...args], { cwd, env: safeGitEnv(env), timeoutMs }));
}

/** Names of the filter drivers the configuration seen from `cwd` defines. */
export async function gitFilterDrivers(cwd: string, timeoutMs = 2_000): Promise<string[]> {
  const listed = await git(
    safeGitArgs(['config', '--name-only', '--get-regexp', '^filter\\.']),
    cwd,
    timeoutMs,
  );
  const names = new Set<string>();
  for (const key of listed.stdout.split('\n')) {
    const match = /^filter\.(.+)\.[^.]+$/.exec(key);
    if (match) names.add(match[1]);
  }
  return [...names];
}

/**
 * A shell that looks up the filter drivers and then becomes git, turning them off: one process
 * started from lathe instead of two (each start from a large process costs the event loop a
 * fork). Its arguments are git's; a driver's name may hold dots or spaces (`filter.<name>.<key>`).
 * The shell is named by its path, which every POSIX system has: PATH need hold git alone.
 */
const FILTERS_OFF_THEN_GIT = `command -v git >/dev/null 2>&1 || { echo "${GIT_NOT_FOUND}" >&2; exit 127; }
i=\${GIT_CONFIG_COUNT:-0}
while IFS= read -r key; do
  [ -n "$key" ] || continue
  name=\${key#filter.}; name=\${name%.*}
  for setting in ${FILTER_OFF.map(([key, value]) => `${key}=${value}`).join(' ')}; do
    set -- -c "filter.$name.$setting" "$@"
    export "GIT_CONFIG_KEY_$i=filter.$name.\${setting%%=*}" "GIT_CONFIG_VALUE_$i=\${setting#*=}"
    i=$((i + 1))
  done
done <<LATHE_FILTERS
$(git ${SAFE_CONFIG.map((c) => `-c ${c}`).join(' ')} config --name-only --get-regexp '^filter\\.' 2>/dev/null)
LATHE_FILTERS
export GIT_CONFIG_COUNT=$i
exec git "$@"`;

/**
 * Runs one of lathe's own git commands (never the model's) with `safeGitArgs` and
 * `safeGitEnv`, filter drivers the repository defines turned off. Every git call lathe makes
 * itself goes through here.
 */
export async function runGit(
  args: readonly string[],
  options: {
    cwd: string;
    timeoutMs?: number;
    env?: NodeJS.ProcessEnv;
    /** The repository's filter drivers, found once (`gitFilterDrivers`) for a run of calls; default: found by the same process. */
    filterDrivers?: readonly string[];
  },
): Promise<GitRun> {
  const timeout = options.timeoutMs ?? 2_000;
  if (options.filterDrivers)
    return git(
      safeGitArgs(args, options.filterDrivers),
      options.cwd,
      timeout,
      filterDriversOff(options.env ?? process.env, options.filterDrivers),
    );
  const run = await collectProcess(['/bin/sh', '-c', FILTERS_OFF_THEN_GIT, 'sh', ...safeGitArgs(args)], {
    cwd: options.cwd,
    env: safeGitEnv(options.env),
    timeoutMs: timeout,
  });
  if (run.code === 127 && run.stderr.includes(GIT_NOT_FOUND)) {
    const error: NodeJS.ErrnoException = Object.assign(new Error('spawn git ENOENT'), { code: 'ENOENT' });
    return { status: null, stdout: '', stderr: '', error };
  }
  return gitRunOf(run);
}
