/**
 * Where the tools work: the workspace the permission engine and the sandbox guard, and the
 * folder relative paths and commands start from. A runtime's place moves when the session
 * enters a worktree and back when it leaves; whatever reads it reads it at each use.
 */
export interface Place {
  readonly workspace: string;
  readonly cwd: string;
}
