import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { Sandbox } from '../../../src/permission/sandbox/runner.js';
import { createWorktree } from '../../../src/worktree/index.js';
import { needs } from '../../support/required_programs.js';
import { git } from '../../worktree/repos.js';
import { openUp, runSandboxed, sharedDir, USERS, writeShared } from './users.js';

/** A repository with one commit, open to every user. */
function repository(): string {
  const dir = sharedDir('lathe-sbx-place-');
  writeShared(dir, { 'a.txt': 'one\n' });
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', 'a.txt');
  git(dir, 'commit', '-q', '-m', 'a');
  openUp(dir);
  return dir;
}

needs('bwrap').each(USERS)('the writable root follows the place into a worktree, as $name', (user) => {
  it.skipIf(user.unavailable)('writes land in the worktree, never in the main checkout', async () => {
    const repo = repository();
    const home = sharedDir('lathe-home-');
    const place = { workspace: repo };
    const sandbox = new Sandbox(
      {
        mode: 'workspace-write',
        network: false,
        workspace: repo,
        documentsRoot: home,
        bwrapPath: user.bwrapPath,
      },
      { place },
    );
    const write = (file: string) => `echo written > ${join(repo, file)}; echo written > here.txt`;
    await runSandboxed(sandbox, write('before.txt'), { cwd: repo });
    expect(readFileSync(join(repo, 'before.txt'), 'utf8')).toBe('written\n');

    const worktree = await createWorktree({ repo, name: 'moved', documentsRoot: home });
    openUp(home);
    place.workspace = worktree.dir;
    const inside = await runSandboxed(sandbox, write('escaped.txt'), { cwd: worktree.dir });
    expect(inside.code).toBe(0);
    expect(readFileSync(join(worktree.dir, 'here.txt'), 'utf8')).toBe('written\n');
    expect(existsSync(join(repo, 'escaped.txt'))).toBe(false);
    // The worktree's own .git file stays read-only like any checkout's.
    const dotGit = readFileSync(join(worktree.dir, '.git'), 'utf8');
    await runSandboxed(sandbox, 'echo "gitdir: /tmp/x" > .git', { cwd: worktree.dir });
    expect(readFileSync(join(worktree.dir, '.git'), 'utf8')).toBe(dotGit);

    // Nor the main checkout's HEAD or index, which live in the git folder the worktree shares.
    const head = readFileSync(join(repo, '.git', 'HEAD'), 'utf8');
    const index = readFileSync(join(repo, '.git', 'index'));
    for (const file of ['HEAD', 'index']) {
      const r = await runSandboxed(sandbox, `echo x > ${join(repo, '.git', file)} && echo DONE`, {
        cwd: worktree.dir,
      });
      expect(r.stdout, file).not.toContain('DONE');
    }
    expect(readFileSync(join(repo, '.git', 'HEAD'), 'utf8')).toBe(head);
    expect(readFileSync(join(repo, '.git', 'index'))).toEqual(index);

    place.workspace = repo;
    await runSandboxed(sandbox, write('after.txt'), { cwd: repo });
    expect(readFileSync(join(repo, 'after.txt'), 'utf8')).toBe('written\n');
  });
});
