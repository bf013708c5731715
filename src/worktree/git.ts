import { type GitRun, runGit } from '../util/safe_git.js';
import { WorktreeError } from './errors.js';

/**
 * Time allowed to one git command: checking out or committing a large tree takes a while, but
 * a git that hangs (a lock it waits on) must not keep the session waiting for ever.
 */
const GIT_TIMEOUT_MS = 120_000;

/** Runs one of lathe's own git commands (hooks, fsmonitor and filters off) in `cwd`; never throws. */
export function gitRun(cwd: string, args: readonly string[], env?: NodeJS.ProcessEnv): Promise<GitRun> {
  return runGit(args, { cwd, timeoutMs: GIT_TIMEOUT_MS, env });
}

/** The first line git said about a failure, or what stopped it. */
export function gitFailure(run: GitRun): string {
  if (run.error?.code === 'ENOENT') return 'git was not found on PATH';
  if (run.error) return `git did not finish: ${run.error.message}`;
  if (run.status === null) return 'git did not finish in time';
  const said = `${run.stderr}\n${run.stdout}`
    .split('\n')
    .map((line) => line.replace(/^(fatal|error): /, '').trim())
    .find((line) => line.length > 0);
  return said ?? `git exited with status ${run.status}`;
}

/** Runs git and returns its output, trimmed at the end; a failure is a WorktreeError saying `what`. */
export async function git(
  cwd: string,
  args: readonly string[],
  what: string,
  env?: NodeJS.ProcessEnv,
): Promise<string> {
  const run = await gitRun(cwd, args, env);
  if (run.status !== 0) throw new WorktreeError(`${what}: ${gitFailure(run)}`);
  return run.stdout.replace(/\s+$/, '');
}
