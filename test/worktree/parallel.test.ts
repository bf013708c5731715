import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createWorktree, finishWorktree } from '../../src/worktree/index.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { checkoutState, git, latheBranches, repository, writeFiles } from './repos.js';

describe('six worktrees made and finished at once', () => {
  it('gives each its own branch holding only its own file, and leaves the main checkout as it was', async () => {
    const repo = repository({ 'README.md': 'hello\n', 'src/a.ts': 'export const a = 1;\n' });
    // A dirty main checkout with a stash entry: none of it may change.
    writeFiles(repo, { 'stashed.txt': 'stashed\n' });
    git(repo, 'stash', 'push', '-q', '--include-untracked', '-m', 'kept aside');
    writeFiles(repo, { 'README.md': 'edited, not committed\n', 'untracked.txt': 'new\n' });
    git(repo, 'add', 'untracked.txt');
    const before = checkoutState(repo);
    const home = tempDir('lathe-home-');

    const names = ['one', 'two', 'three', 'four', 'five', 'six'];
    const results = await Promise.all(
      names.map(async (name) => {
        const worktree = await createWorktree({ repo, name, documentsRoot: home });
        writeFileSync(join(worktree.dir, `${name}.txt`), `${name}\n`);
        return { worktree, finished: await finishWorktree(worktree, {}) };
      }),
    );

    expect(latheBranches(repo)).toEqual(names.map((n) => `lathe/${n}`).sort());
    for (const { worktree, finished } of results) {
      expect(finished.outcome).toBe('committed');
      expect(finished.diffstat).toContain(`${worktree.name}.txt`);
      expect(worktree.baseSha).toBe(before.head.trim());
      const changed = git(repo, 'diff', '--name-only', worktree.baseSha, worktree.branch).trim();
      expect(changed).toBe(`${worktree.name}.txt`);
      expect(git(repo, 'show', `${worktree.branch}:README.md`)).toBe('hello\n');
    }
    expect(checkoutState(repo)).toEqual(before);
    // Every folder is gone; only the branches hold the work.
    const folder = join(results[0].worktree.dir, '..');
    expect(readdirSync(folder).filter((entry) => !entry.startsWith('.'))).toEqual([]);
    expect(git(repo, 'worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
  });
});
