import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { environmentDetails } from '../../../src/agent/environment.js';
import { needs } from '../../support/required_programs.js';
import { openUp, runSandboxed, sandboxFor, sharedDir, USERS, writeShared } from './users.js';

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** A repository with one commit, open to every user. */
function repository(): string {
  const dir = sharedDir('lathe-sbx-repo-');
  writeShared(dir, { 'a.txt': 'one\n' });
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, '-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'start');
  git(dir, 'add', 'a.txt');
  git(dir, '-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-q', '-m', 'a');
  openUp(dir);
  return dir;
}

/** Sets programs in the repository's config that write `marker` when git runs them. */
function plantPrograms(repo: string, marker: string): void {
  const script = join(repo, 'evil.sh');
  writeFileSync(script, `#!/bin/sh\necho ran >> ${marker}\n`, { mode: 0o755 });
  git(repo, 'config', 'core.fsmonitor', script);
  git(repo, 'config', 'filter.evil.process', script);
  writeFileSync(join(repo, '.gitattributes'), '* filter=evil\n');
  writeFileSync(join(repo, 'a.txt'), 'two\n');
}

// The commands inside run git on files another user made; the repository is the test's own.
const gitInside = "git -c safe.directory='*' -c user.email=t@t -c user.name=t";

describe("lathe's own git calls", () => {
  it('do not run the fsmonitor or filter programs a repository config names', async () => {
    const repo = repository();
    const marker = join(sharedDir('lathe-marker-'), 'ran.txt');
    plantPrograms(repo, marker);
    // A plain `git status` runs them: the repository really is armed.
    spawnSync('git', ['status', '--porcelain'], { cwd: repo });
    expect(existsSync(marker)).toBe(true);
    writeFileSync(marker, '');
    const details = await environmentDetails(repo);
    expect(details).toMatch(/Git: branch main, \d+ changed files/);
    expect(readFileSync(marker, 'utf8')).toBe('');
  });
});

needs('bwrap').each(USERS)('the repository inside the sandbox, as $name', (user) => {
  it.skipIf(user.unavailable)(
    'a command cannot change .git/config, hooks or info, nor swap .git',
    async () => {
      const repo = repository();
      const before = readFileSync(join(repo, '.git', 'config'), 'utf8');
      const sandbox = sandboxFor(user, { workspace: repo });
      const attempts = [
        'git config core.fsmonitor /bin/false',
        'echo "[core] hooksPath = /x" >> .git/config',
        'echo "#!/bin/sh" > .git/hooks/pre-commit',
        'echo "*.txt diff=evil" > .git/info/attributes',
        'mv .git .git-moved',
        'rm -rf .git',
      ];
      for (const attempt of attempts) {
        const r = await runSandboxed(sandbox, `${attempt} && echo DONE`);
        expect(r.stdout, attempt).not.toContain('DONE');
      }
      expect(readFileSync(join(repo, '.git', 'config'), 'utf8')).toBe(before);
      expect(existsSync(join(repo, '.git', 'hooks', 'pre-commit'))).toBe(false);
      expect(existsSync(join(repo, '.git', 'info', 'attributes'))).toBe(false);
    },
  );

  it.skipIf(user.unavailable)('a commondir or config.worktree a command creates is taken away', async () => {
    const repo = repository();
    const sandbox = sandboxFor(user, { workspace: repo });
    const r = await runSandboxed(
      sandbox,
      'mkdir evil && echo evil > .git/commondir && echo x > .git/config.worktree',
    );
    expect(r.code).toBe(0);
    expect(existsSync(join(repo, '.git', 'commondir'))).toBe(false);
    expect(existsSync(join(repo, '.git', 'config.worktree'))).toBe(false);
    expect(r.undone).toMatch(/\.git\/commondir/);
  });

  it.skipIf(user.unavailable)('git still works: a commit is made', async () => {
    const repo = repository();
    const sandbox = sandboxFor(user, { workspace: repo });
    const r = await runSandboxed(
      sandbox,
      `echo b > b.txt && ${gitInside} add b.txt && ${gitInside} commit -q -m b && echo OK`,
    );
    expect(r.stdout + r.stderr).toContain('OK');
    expect(git(repo, 'log', '--format=%s', '-1')).toBe('b\n');
  });

  it.skipIf(user.unavailable)(
    'a worktree workspace works, and its real git folder stays protected',
    async () => {
      const repo = repository();
      const worktree = join(sharedDir('lathe-sbx-wt-'), 'wt');
      git(repo, 'worktree', 'add', '-q', '-b', 'side', worktree);
      openUp(repo);
      openUp(worktree);
      const dotGit = readFileSync(join(worktree, '.git'), 'utf8');
      const commonConfig = readFileSync(join(repo, '.git', 'config'), 'utf8');
      const sandbox = sandboxFor(user, { workspace: worktree });
      const work = await runSandboxed(
        sandbox,
        `echo c > c.txt && ${gitInside} add c.txt && ${gitInside} commit -q -m c && ${gitInside} status --short && echo OK`,
      );
      expect(work.stdout + work.stderr).toContain('OK');
      expect(git(worktree, 'log', '--format=%s', '-1')).toBe('c\n');
      for (const attempt of [
        `git config core.fsmonitor /bin/false`,
        `echo "[core] pager = evil" >> ${join(repo, '.git', 'config')}`,
        'echo "gitdir: /tmp/evil" > .git',
        `echo /tmp/evil > ${join(repo, '.git', 'worktrees', 'wt', 'commondir')}`,
        `echo "#!/bin/sh" > ${join(repo, '.git', 'hooks', 'post-checkout')}`,
      ]) {
        const r = await runSandboxed(sandbox, `${attempt} && echo DONE`);
        expect(r.stdout, attempt).not.toContain('DONE');
      }
      expect(readFileSync(join(worktree, '.git'), 'utf8')).toBe(dotGit);
      expect(readFileSync(join(repo, '.git', 'config'), 'utf8')).toBe(commonConfig);
      expect(readFileSync(join(repo, '.git', 'worktrees', 'wt', 'commondir'), 'utf8')).toBe('../..\n');
      expect(existsSync(join(repo, '.git', 'hooks', 'post-checkout'))).toBe(false);
    },
  );
});
