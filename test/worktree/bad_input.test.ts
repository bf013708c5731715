import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorktree, WorktreeError } from '../../src/worktree/index.js';
import { repositoryFolder } from '../../src/worktree/places.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { checkoutState, git, latheBranches, repository, writeFiles } from './repos.js';

/** What lathe has under its worktrees folder for `repo`: entries, the lock included. */
function madeFor(home: string, repo: string): string[] {
  const folder = repositoryFolder(home, join(repo, '.git'));
  return existsSync(folder) ? readdirSync(folder).sort() : [];
}

/** The WorktreeError a creation fails with (a test fails if it succeeds or throws something else). */
async function failure(options: Parameters<typeof createWorktree>[0]): Promise<string> {
  const error = await createWorktree(options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WorktreeError);
  return (error as Error).message;
}

/** Nothing of a failed creation is left: no folder, record, lock, branch or registration. */
function expectNothingMade(home: string, repo: string, kept: string[] = []): void {
  expect(madeFor(home, repo)).toEqual(kept);
  expect(latheBranches(repo).filter((b) => !kept.some((k) => b === `lathe/${k}`))).toEqual([]);
  expect(git(repo, 'worktree', 'list', '--porcelain').match(/^worktree /gm)?.length).toBe(
    1 + kept.length / 2,
  );
}

describe('bad input to createWorktree', () => {
  const savedPath = process.env.PATH;
  afterEach(() => {
    process.env.PATH = savedPath;
  });

  it('refuses a name that exists, and leaves the first worktree alone', async () => {
    const repo = repository();
    const home = tempDir('lathe-home-');
    const first = await createWorktree({ repo, name: 'dup', documentsRoot: home });
    writeFileSync(join(first.dir, 'work.txt'), 'in progress\n');
    expect(await failure({ repo, name: 'dup', documentsRoot: home })).toMatch(
      /worktree named "dup" exists already/,
    );
    expect(readFileSync(join(first.dir, 'work.txt'), 'utf8')).toBe('in progress\n');
    expectNothingMade(home, repo, ['dup', 'dup.json']);
  });

  it('refuses a name whose branch exists, leaving the branch where it was', async () => {
    const repo = repository();
    const home = tempDir('lathe-home-');
    git(repo, 'branch', 'lathe/taken');
    const tip = git(repo, 'rev-parse', 'lathe/taken');
    expect(await failure({ repo, name: 'taken', documentsRoot: home })).toMatch(
      /branch lathe\/taken exists already/,
    );
    expect(git(repo, 'rev-parse', 'lathe/taken')).toBe(tip);
    expect(madeFor(home, repo)).toEqual([]);
  });

  it('refuses a name whose folder exists, and does not touch the folder', async () => {
    const repo = repository();
    const home = tempDir('lathe-home-');
    const folder = join(repositoryFolder(home, join(repo, '.git')), 'mine');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'keep.txt'), 'mine\n');
    expect(await failure({ repo, name: 'mine', documentsRoot: home })).toMatch(/exists already/);
    expect(readFileSync(join(folder, 'keep.txt'), 'utf8')).toBe('mine\n');
    expect(madeFor(home, repo)).toEqual(['mine']);
    expect(latheBranches(repo)).toEqual([]);
  });

  it('refuses a folder that is not in a git repository', async () => {
    const home = tempDir('lathe-home-');
    const folder = tempDir('lathe-not-git-');
    expect(await failure({ repo: folder, documentsRoot: home })).toMatch(/is not in a git repository/);
    expect(existsSync(join(home, 'worktrees'))).toBe(false);
  });

  it('refuses a repository with no commit yet', async () => {
    const home = tempDir('lathe-home-');
    const repo = tempDir('lathe-empty-repo-');
    git(repo, 'init', '-q', '-b', 'main');
    expect(await failure({ repo, documentsRoot: home })).toMatch(/has no commit yet/);
    expect(existsSync(join(home, 'worktrees'))).toBe(false);
  });

  it('refuses a base that names no commit', async () => {
    const repo = repository();
    const home = tempDir('lathe-home-');
    expect(await failure({ repo, base: 'no-such-branch', documentsRoot: home })).toMatch(
      /base "no-such-branch" names no commit/,
    );
    expect(await failure({ repo, base: '--orphan', documentsRoot: home })).toMatch(/not a valid base/);
    expectNothingMade(home, repo);
  });

  it.each(['a/b', '..', 'a..b', '.hidden', '-x', 'x.lock', 'ends.', 'a b', '', 'ü', 'x'.repeat(65)])(
    'refuses the name %j',
    async (name) => {
      const repo = repository();
      const home = tempDir('lathe-home-');
      expect(await failure({ repo, name, documentsRoot: home })).toMatch(/worktree name/);
      expect(existsSync(join(home, 'worktrees'))).toBe(false);
      expect(latheBranches(repo)).toEqual([]);
    },
  );

  it('says so when git is not installed', async () => {
    const repo = repository();
    const home = tempDir('lathe-home-');
    process.env.PATH = tempDir('lathe-empty-path-');
    expect(await failure({ repo, documentsRoot: home })).toMatch(/git was not found on PATH/);
    process.env.PATH = savedPath;
    expect(existsSync(join(home, 'worktrees'))).toBe(false);
  });

  it('refuses a malformed .agents/worktree.json before making anything', async () => {
    const repo = repository({ 'README.md': 'hi\n', '.agents/worktree.json': '{"include": ".env"}' });
    const home = tempDir('lathe-home-');
    expect(await failure({ repo, documentsRoot: home })).toMatch(/"include" must be a list of globs/);
    expectNothingMade(home, repo);
  });
});

describe('a dirty main checkout', () => {
  it('is fine: the worktree starts from the committed SHA, and the result says the changes stay behind', async () => {
    const repo = repository({ 'README.md': 'committed\n' });
    writeFiles(repo, { 'README.md': 'not committed\n', 'new.txt': 'untracked\n' });
    const before = checkoutState(repo);
    const home = tempDir('lathe-home-');
    const worktree = await createWorktree({ repo, name: 'clean', documentsRoot: home });
    expect(worktree.notes[0]).toMatch(/^uncommitted changes in the main checkout are not in the worktree/);
    expect(worktree.baseSha).toBe(before.head.trim());
    expect(readFileSync(join(worktree.dir, 'README.md'), 'utf8')).toBe('committed\n');
    expect(existsSync(join(worktree.dir, 'new.txt'))).toBe(false);
    expect(checkoutState(repo)).toEqual(before);
  });

  it('pins the worktree to the SHA, not to the branch that is checked out', async () => {
    const repo = repository();
    const home = tempDir('lathe-home-');
    const sha = git(repo, 'rev-parse', 'HEAD').trim();
    const worktree = await createWorktree({ repo, name: 'pinned', base: 'main', documentsRoot: home });
    git(repo, 'commit', '-q', '--allow-empty', '-m', 'later');
    expect(worktree.baseSha).toBe(sha);
    expect(git(worktree.dir, 'rev-parse', 'HEAD').trim()).toBe(sha);
    expect(git(worktree.dir, 'symbolic-ref', 'HEAD').trim()).toBe('refs/heads/lathe/pinned');
  });
});
