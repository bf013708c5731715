import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../support/runtime_fixtures.js';

const IDENTITY = ['-c', 'user.email=test@example.com', '-c', 'user.name=Test'];

/** Runs git in `cwd` (with an identity for commits); a failure fails the test. */
export function git(cwd: string, ...args: string[]): string {
  const run = spawnSync('git', [...IDENTITY, ...args], { cwd, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
}

/** Whether `git args` succeeds in `cwd`. */
export function gitSucceeds(cwd: string, ...args: string[]): boolean {
  return spawnSync('git', args, { cwd, encoding: 'utf8' }).status === 0;
}

/** A repository on branch main with `files` committed (default: one README). */
export function repository(files: Record<string, string> = { 'README.md': 'hello\n' }): string {
  const dir = tempDir('lathe-wt-repo-');
  git(dir, 'init', '-q', '-b', 'main');
  writeFiles(dir, files);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'start');
  return dir;
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
}

/** What of the main checkout lathe must never touch: HEAD, status (index and files) and stash. */
export function checkoutState(dir: string) {
  return {
    head: git(dir, 'rev-parse', 'HEAD'),
    branch: git(dir, 'symbolic-ref', 'HEAD'),
    status: git(dir, 'status', '--porcelain'),
    stash: git(dir, 'stash', 'list'),
    staged: git(dir, 'diff', '--cached'),
  };
}

/** The branches of a repository under lathe/. */
export function latheBranches(dir: string): string[] {
  return git(dir, 'branch', '--list', 'lathe/*', '--format=%(refname:short)')
    .split('\n')
    .filter(Boolean)
    .sort();
}
