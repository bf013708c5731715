import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitFilterDrivers, runGit } from '../../src/util/safe_git.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

function git(cwd: string, ...args: string[]): void {
  const r = spawnSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], {
    cwd,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

/**
 * A repository whose tracked files are changed, with filter drivers named plainly, with dots,
 * and with `=` (which `git -c` cannot name).
 */
function armedRepository(marker: string): string {
  const repo = writeTree({ 'a.txt': 'one\n', 'b.md': 'one\n', 'c.cfg': 'one\n' }, 'lathe-safe-git-');
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'start');
  const script = join(repo, 'evil.sh');
  writeFileSync(script, `#!/bin/sh\necho "$1" >> ${marker}\ncat\n`, { mode: 0o755 });
  git(repo, 'config', 'filter.evil.clean', `${script} plain`);
  git(repo, 'config', 'filter.evil.two.clean', `${script} dotted`);
  git(repo, 'config', 'filter.x=y.clean', `${script} equals`);
  writeFileSync(join(repo, '.gitattributes'), '*.txt filter=evil\n*.md filter=evil.two\n*.cfg filter=x=y\n');
  for (const name of ['a.txt', 'b.md', 'c.cfg']) writeFileSync(join(repo, name), 'two\n');
  return repo;
}

describe('runGit', () => {
  it('turns off every filter driver the repository defines, however it is named', async () => {
    const marker = join(tempDir('lathe-marker-'), 'ran.txt');
    const repo = armedRepository(marker);
    // A plain `git status` runs them all: the repository really is armed.
    spawnSync('git', ['status', '--porcelain'], { cwd: repo });
    expect(new Set(readFileSync(marker, 'utf8').split('\n').filter(Boolean))).toEqual(
      new Set(['dotted', 'equals', 'plain']),
    );
    const drivers = await gitFilterDrivers(repo);
    expect(drivers.sort()).toEqual(['evil', 'evil.two', 'x=y']);
    // Drivers looked up by the same process, and drivers looked up once for many calls.
    for (const options of [{ cwd: repo }, { cwd: repo, filterDrivers: drivers }]) {
      writeFileSync(marker, '');
      const status = await runGit(['status', '--porcelain'], options);
      expect(status.status).toBe(0);
      for (const name of ['a.txt', 'b.md', 'c.cfg']) expect(status.stdout).toContain(` M ${name}`);
      expect(readFileSync(marker, 'utf8')).toBe('');
    }
  });

  it("runs no diff driver's textconv or external diff program in a diff, a log or a show", async () => {
    const marker = join(tempDir('lathe-marker-'), 'ran.txt');
    const repo = armedRepository(marker);
    const script = join(repo, 'evil.sh');
    git(repo, 'config', 'diff.evil.textconv', `${script} textconv`);
    git(repo, 'config', 'diff.evil.command', `${script} external`);
    writeFileSync(join(repo, '.gitattributes'), '* diff=evil\n');
    git(repo, 'commit', '-q', '-a', '-m', 'changed');
    // Plain git runs them: the repository really is armed.
    spawnSync('git', ['diff', 'HEAD~1', '--stat'], { cwd: repo });
    spawnSync('git', ['log', '-p', '-1', '--format='], { cwd: repo });
    expect(readFileSync(marker, 'utf8')).toMatch(/textconv/);
    writeFileSync(marker, '');
    for (const args of [
      ['diff', 'HEAD~1', '--stat'],
      ['diff', 'HEAD~1'],
      ['log', '-p', '-1', '--format='],
      ['show', '--format=', 'HEAD'],
    ]) {
      const run = await runGit(args, { cwd: repo });
      expect(run.status).toBe(0);
      expect(run.stdout).toContain('a.txt');
    }
    expect(readFileSync(marker, 'utf8')).toBe('');
  });

  it("keeps the configuration the caller's environment gives git", async () => {
    const repo = armedRepository(join(tempDir('lathe-marker-'), 'ran.txt'));
    const env = {
      ...process.env,
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'lathe.test',
      GIT_CONFIG_VALUE_0: 'kept',
    };
    for (const options of [
      { cwd: repo, env },
      { cwd: repo, env, filterDrivers: await gitFilterDrivers(repo) },
    ])
      expect((await runGit(['config', 'lathe.test'], options)).stdout).toBe('kept\n');
  });

  it('needs nothing on PATH but git', async () => {
    const bin = tempDir('lathe-path-');
    symlinkSync(execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim(), join(bin, 'git'));
    const run = await runGit(['--version'], { cwd: tempDir(), env: { PATH: bin } });
    expect(run.error).toBeUndefined();
    expect(run.stdout).toMatch(/^git version /);
  });

  it('says git is missing as a start error, as when git itself could not start', async () => {
    // A PATH with nothing on it: git is not there.
    const run = await runGit(['status'], { cwd: tempDir(), env: { PATH: tempDir('lathe-path-') } });
    expect(run.error?.code).toBe('ENOENT');
    expect(run.status).toBeNull();
  });
});
