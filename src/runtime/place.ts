import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isInside } from '../permission/paths.js';
import type { Place } from '../permission/place.js';
import type { WorkspaceMove } from '../tool/context/workspace_move.js';
import type { Worktree } from '../worktree/index.js';

/**
 * A runtime's place: its home workspace, or the worktree the session entered. The execution
 * context, the permission engine and the sandbox all read it at each use, so one `moveTo`
 * moves the cwd, the permission workspace and the sandbox's writable root together.
 */
export class RuntimePlace implements Place, WorkspaceMove {
  private current: { workspace: string; cwd: string; worktree?: Worktree };

  constructor(
    readonly home: string,
    private readonly homeCwd: string,
    readonly trusted: boolean,
  ) {
    this.current = { workspace: home, cwd: homeCwd };
  }

  get workspace(): string {
    return this.current.workspace;
  }

  get cwd(): string {
    return this.current.cwd;
  }

  get worktree(): Worktree | undefined {
    return this.current.worktree;
  }

  moveTo(worktree: Worktree | undefined): void {
    if (!worktree) {
      this.current = { workspace: this.home, cwd: this.homeCwd };
      return;
    }
    // The same folder of the repository as at home, when the worktree has it (a workspace below the root).
    const inRepository = isInside(this.homeCwd, worktree.repoRoot)
      ? relative(worktree.repoRoot, this.homeCwd)
      : '';
    const cwd = join(worktree.dir, inRepository);
    this.current = { workspace: worktree.dir, cwd: existsSync(cwd) ? cwd : worktree.dir, worktree };
  }
}
