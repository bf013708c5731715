import type { SetupRunner } from './project_files.js';

/** A git worktree lathe made: its own folder and branch, started from one commit. */
export interface Worktree {
  name: string;
  /** Its folder, `$LATHE_HOME/worktrees/<repository>/<name>`. */
  dir: string;
  /** `lathe/<name>`. */
  branch: string;
  /** The commit it started from, resolved when it was made. */
  baseSha: string;
  /** The checkout it was made from. */
  repoRoot: string;
  /**
   * What the caller should know about how it was made: uncommitted changes of the main checkout
   * left behind, files copied in, setup commands run or not run and why.
   */
  notes: string[];
}

export interface CreateWorktreeOptions {
  /** A folder of the repository (the session's workspace). */
  repo: string;
  /** Letters, digits, `.`, `_`, `-`; default a fresh `wt-xxxxxx`. */
  name?: string;
  /** A branch, tag or commit to start from; default HEAD. Either is resolved to a SHA at once. */
  base?: string;
  documentsRoot: string;
  /** The pid of the process working in it (default this one): a worktree whose owner is gone is pruned. */
  owner?: number;
  /** Whether the user trusts the repository's folder: its setup commands run only then. */
  trusted?: boolean;
  /** Runs each setup command of `.agents/worktree.json` in the sandbox; without it they are not run. */
  runSetup?: SetupRunner;
}

export interface FinishOptions {
  /** Leave the folder and its uncommitted changes as they are (the worktree is never pruned). */
  keep?: boolean;
  /** The commit message for changes left in the worktree. */
  message?: string;
}

export interface FinishResult {
  /**
   * `removed`: nothing had changed, folder and branch are gone; `committed`: the changes are
   * on the branch, the folder is gone; `kept`: folder and changes stay.
   */
  outcome: 'removed' | 'committed' | 'kept';
  /** `git diff --stat` of the branch against its base (committed), or of the uncommitted changes (kept). */
  diffstat?: string;
  /** The branch's last commit (committed). */
  commit?: string;
}
