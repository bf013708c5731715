import { lstatSync, readFileSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Where a workspace's repository keeps its state, `.git` files followed. */
export interface GitLayout {
  /** `<workspace>/.git` as found (a folder, a file naming the real one, or a link). */
  dotGit: string;
  kind: 'folder' | 'file' | 'symlink';
  /** The real git folder of this checkout (for a worktree: `<common>/worktrees/<name>`). */
  gitDir: string;
  /** The folder holding the shared config, hooks and objects (the gitDir itself outside worktrees). */
  commonDir: string;
}

/**
 * The repository layout of `<workspace>/.git`, or undefined when there is none or it cannot be
 * read. A worktree's or submodule's `.git` is a file `gitdir: <path>`; a worktree's git folder
 * then names the common folder in its `commondir` file.
 */
export function gitLayout(workspace: string): GitLayout | undefined {
  const dotGit = join(workspace, '.git');
  let kind: GitLayout['kind'];
  try {
    const stat = lstatSync(dotGit);
    kind = stat.isSymbolicLink() ? 'symlink' : stat.isDirectory() ? 'folder' : 'file';
  } catch {
    return undefined;
  }
  try {
    let gitDir: string;
    if (kind === 'file') {
      const match = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'));
      if (!match) return undefined;
      gitDir = realpathSync(resolve(workspace, match[1]));
    } else {
      gitDir = realpathSync(dotGit);
    }
    let commonDir = gitDir;
    try {
      const named = readFileSync(join(gitDir, 'commondir'), 'utf8').trim();
      if (named) commonDir = realpathSync(resolve(gitDir, named));
    } catch {
      // no commondir file: the git folder is the common folder
    }
    return { dotGit, kind, gitDir, commonDir };
  } catch {
    return undefined;
  }
}

/**
 * The parts of a git folder that make git run programs or read configuration: a command that
 * could write them would run code through the next git call outside the sandbox.
 */
export function gitControlPaths(layout: GitLayout): string[] {
  const paths = [join(layout.gitDir, 'commondir')];
  for (const dir of new Set([layout.gitDir, layout.commonDir])) {
    paths.push(join(dir, 'config'), join(dir, 'config.worktree'), join(dir, 'hooks'), join(dir, 'info'));
  }
  return paths;
}
