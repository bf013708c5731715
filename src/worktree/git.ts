import { type GitRun, gitFilterDrivers, runGit } from '../util/safe_git.js';
import { WorktreeError } from './errors.js';

/**
 * Time allowed to one git command: checking out or committing a large tree takes a while, but
 * a git that hangs (a lock it waits on) must not keep the session waiting for ever.
 */
const GIT_TIMEOUT_MS = 120_000;

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

/**
 * lathe's own git calls in one repository (its main checkout and its worktrees share one
 * configuration), hooks, fsmonitor and filter programs off. The filter drivers to turn off are
 * read once, when it is opened, for the few calls of one operation.
 */
export class RepositoryGit {
  private constructor(private readonly drivers: readonly string[]) {}

  /** Opens the repository seen from `folder` (an existing folder); fails only when git cannot run. */
  static async open(folder: string): Promise<RepositoryGit> {
    const probe = await runGit(['--version'], { cwd: folder, filterDrivers: [] });
    if (probe.error?.code === 'ENOENT')
      throw new WorktreeError('git was not found on PATH: worktrees need git installed');
    if (probe.status !== 0) throw new WorktreeError(`git does not run here: ${gitFailure(probe)}`);
    return new RepositoryGit(await gitFilterDrivers(folder, GIT_TIMEOUT_MS));
  }

  /** Runs git in `cwd`; never throws. */
  run(cwd: string, args: readonly string[], env?: NodeJS.ProcessEnv): Promise<GitRun> {
    return runGit(args, { cwd, timeoutMs: GIT_TIMEOUT_MS, env, filterDrivers: this.drivers });
  }

  /** Runs git and returns its output, trimmed at the end; a failure is a WorktreeError saying `what`. */
  async output(cwd: string, args: readonly string[], what: string, env?: NodeJS.ProcessEnv): Promise<string> {
    const run = await this.run(cwd, args, env);
    if (run.status !== 0) throw new WorktreeError(`${what}: ${gitFailure(run)}`);
    return run.stdout.replace(/\s+$/, '');
  }
}
