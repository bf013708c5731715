import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorktree, finishWorktree, listWorktrees, pruneWorktrees } from '../../src/worktree/index.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { checkoutState, git, gitSucceeds, latheBranches, repository } from './repos.js';

describe('finishWorktree', () => {
  const savedHome = process.env.HOME;
  afterEach(() => {
    process.env.HOME = savedHome;
    delete process.env.GIT_CONFIG_NOSYSTEM;
  });

  it('removes an unchanged worktree with its branch', async () => {
    const repo = repository();
    const home = tempDir('lathe-home-');
    const before = checkoutState(repo);
    const worktree = await createWorktree({ repo, name: 'idle', documentsRoot: home });
    expect(existsSync(worktree.dir)).toBe(true);
    expect(await finishWorktree(worktree, {})).toEqual({ outcome: 'removed' });
    expect(existsSync(worktree.dir)).toBe(false);
    expect(existsSync(`${worktree.dir}.json`)).toBe(false);
    expect(latheBranches(repo)).toEqual([]);
    expect(checkoutState(repo)).toEqual(before);
  });

  it('commits changes on the branch, removes the folder and returns the diffstat', async () => {
    const repo = repository({ 'README.md': 'hello\n', 'old.txt': 'old\n' });
    const home = tempDir('lathe-home-');
    const worktree = await createWorktree({ repo, name: 'busy', documentsRoot: home });
    writeFileSync(join(worktree.dir, 'README.md'), 'hello\nmore\n');
    writeFileSync(join(worktree.dir, 'added.txt'), 'new\n');
    rmSync(join(worktree.dir, 'old.txt'));
    const result = await finishWorktree(worktree, { message: 'Add more' });
    expect(result.outcome).toBe('committed');
    expect(result.diffstat).toMatch(/README\.md \| 1 \+/);
    expect(result.diffstat).toMatch(/3 files changed, 2 insertions\(\+\), 1 deletion\(-\)/);
    expect(git(repo, 'rev-parse', 'lathe/busy').trim()).toBe(result.commit);
    expect(git(repo, 'log', '-1', '--format=%s', 'lathe/busy').trim()).toBe('Add more');
    expect(git(repo, 'show', 'lathe/busy:added.txt')).toBe('new\n');
    expect(existsSync(worktree.dir)).toBe(false);
  });

  it('keeps a commit the work made itself, even with nothing left uncommitted', async () => {
    const repo = repository();
    const home = tempDir('lathe-home-');
    const worktree = await createWorktree({ repo, name: 'self', documentsRoot: home });
    writeFileSync(join(worktree.dir, 'a.txt'), 'a\n');
    git(worktree.dir, 'add', 'a.txt');
    git(worktree.dir, 'commit', '-q', '-m', 'own commit');
    const result = await finishWorktree(worktree, {});
    expect(result.outcome).toBe('committed');
    expect(git(repo, 'log', '-1', '--format=%s', 'lathe/self').trim()).toBe('own commit');
  });

  it('commits where git knows no identity', async () => {
    const repo = repository();
    const home = tempDir('lathe-home-');
    const worktree = await createWorktree({ repo, name: 'anon', documentsRoot: home });
    writeFileSync(join(worktree.dir, 'a.txt'), 'a\n');
    // No global or system config, and an email git cannot guess from this host: commits fail unaided.
    process.env.HOME = tempDir('lathe-no-identity-');
    process.env.GIT_CONFIG_NOSYSTEM = '1';
    expect(gitSucceeds(worktree.dir, 'commit', '--allow-empty', '-q', '-m', 'unaided')).toBe(false);
    const result = await finishWorktree(worktree, {});
    expect(result.outcome).toBe('committed');
    expect(git(repo, 'log', '-1', '--format=%an <%ae>', 'lathe/anon').trim()).toMatch(/<.+@.+>/);
  });

  it('with keep, leaves the folder and its uncommitted changes, and prune leaves it too', async () => {
    const repo = repository();
    const home = tempDir('lathe-home-');
    const worktree = await createWorktree({ repo, name: 'later', documentsRoot: home });
    writeFileSync(join(worktree.dir, 'README.md'), 'half done\n');
    const result = await finishWorktree(worktree, { keep: true });
    expect(result.outcome).toBe('kept');
    expect(result.diffstat).toMatch(/README\.md/);
    expect(readFileSync(join(worktree.dir, 'README.md'), 'utf8')).toBe('half done\n');
    expect(git(worktree.dir, 'status', '--porcelain')).toBe(' M README.md\n');
    expect(git(repo, 'rev-parse', 'lathe/later').trim()).toBe(worktree.baseSha);
    const [listed] = await listWorktrees({ documentsRoot: home });
    expect(listed).toMatchObject({
      name: 'later',
      state: 'kept',
      owner: null,
      changes: { files: 1, commits: 0 },
    });
    expect((await pruneWorktrees({ documentsRoot: home })).pruned).toEqual([]);
    expect(existsSync(worktree.dir)).toBe(true);
    expect(gitSucceeds(repo, 'rev-parse', '--verify', 'lathe/later')).toBe(true);
  });
});

describe('finishWorktree on a worktree switched to another branch', () => {
  it('refuses, and leaves the worktree and both branches as they are', async () => {
    const repo = repository();
    const home = tempDir('lathe-home-');
    const worktree = await createWorktree({ repo, name: 'moved', documentsRoot: home });
    git(worktree.dir, 'switch', '-q', '-c', 'elsewhere');
    writeFileSync(join(worktree.dir, 'a.txt'), 'a\n');
    const error = await finishWorktree(worktree, {}).catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      'worktree moved is on elsewhere, not lathe/moved: switch back (git switch lathe/moved) or leave it with keep',
    );
    expect(readFileSync(join(worktree.dir, 'a.txt'), 'utf8')).toBe('a\n');
    expect(git(repo, 'rev-parse', 'elsewhere')).toBe(git(repo, 'rev-parse', 'lathe/moved'));
  });
});
