import type { Worktree } from '../../worktree/index.js';

/**
 * What enter_worktree and exit_worktree need of the runtime: where the session started, whether
 * its folder is trusted, the worktree it is in, and a way to move there and back.
 */
export interface WorkspaceMove {
  /** The session's own workspace: worktrees are made from its repository, and exit returns here. */
  readonly home: string;
  /** Whether the user trusts the home folder: a worktree's setup commands come from it and run only then. */
  readonly trusted: boolean;
  /** The worktree the session works in now; undefined at home. */
  readonly worktree: Worktree | undefined;
  /**
   * Moves the session's cwd, the permission engine's workspace and the sandbox's writable root
   * into the worktree's folder, or back home with undefined. Calls after it work there.
   */
  moveTo(worktree: Worktree | undefined): void;
}
