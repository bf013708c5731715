import { spawnSync } from 'node:child_process';
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

/** A repository whose tracked files are changed, with filter drivers named plainly and with dots. */
function armedRepository(marker: string): string {
  const repo = writeTree({ 'a.txt': 'one\n', 'b.md': 'one\n' }, 'lathe-safe-git-');
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'start');
  const script = join(repo, 'evil.sh');
  writeFileSync(script, `#!/bin/sh\necho "$1" >> ${marker}\ncat\n`, { mode: 0o755 });
  git(repo, 'config', 'filter.evil.clean', `${script} plain`);
  git(repo, 'config', 'filter.evil.two.clean', `${script} dotted`);
  writeFileSync(join(repo, '.gitattributes'), '*.txt filter=evil\n*.md filter=evil.two\n');
  writeFileSync(join(repo, 'a.txt'), 'two\n');
  writeFileSync(join(repo, 'b.md'), 'two\n');
  return repo;
}

describe('runGit', () => {
  it('turns off every filter driver the repository defines, a dotted name too', async () => {
    const marker = join(tempDir('lathe-marker-'), 'ran.txt');
    const repo = armedRepository(marker);
    // A plain `git status` runs both: the repository really is armed.
    spawnSync('git', ['status', '--porcelain'], { cwd: repo });
    expect(new Set(readFileSync(marker, 'utf8').split('\n').filter(Boolean))).toEqual(
      new Set(['dotted', 'plain']),
    );
    writeFileSync(marker, '');
    expect(await gitFilterDrivers(repo)).toEqual(expect.arrayContaining(['evil', 'evil.two']));
    const status = await runGit(['status', '--porcelain'], { cwd: repo });
    expect(status.status).toBe(0);
    expect(status.stdout).toContain(' M a.txt');
    expect(status.stdout).toContain(' M b.md');
    expect(readFileSync(marker, 'utf8')).toBe('');
  });

  it('says git is missing as a start error, as when git itself could not start', async () => {
    // A PATH with a shell and nothing else: git is not on it.
    const bin = tempDir('lathe-path-');
    symlinkSync('/bin/sh', join(bin, 'sh'));
    const run = await runGit(['status'], { cwd: tempDir(), env: { PATH: bin } });
    expect(run.error?.code).toBe('ENOENT');
    expect(run.status).toBeNull();
  });
});
