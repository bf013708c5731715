import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './runtime_fixtures.js';

/** git in `dir`, its output; fails the test when git does. */
export function git(dir: string, args: string[], env: NodeJS.ProcessEnv = {}): string {
  return execFileSync('git', args, {
    cwd: dir,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t.invalid',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t.invalid',
      ...env,
    },
  });
}

/** What git itself lists in `dir`: `git ls-files --cached --others --exclude-standard`, sorted. */
export function gitListing(dir: string, env: NodeJS.ProcessEnv = {}): string[] {
  return git(dir, ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], env)
    .split('\0')
    .filter((p) => p !== '')
    .sort();
}

/**
 * Writes `paths` under `dir` as node-ignore's git check does: a path ending in `/` is a folder,
 * a path another one lies under is a folder too, everything else a file holding "x".
 */
export function writePaths(dir: string, paths: string[]): void {
  paths.forEach((path, i) => {
    const bare = path.replace(/\/$/, '');
    const isFolder = paths.some((other, j) => j !== i && other.startsWith(`${bare}/`));
    if (path.endsWith('/') || isFolder) mkdirSync(join(dir, bare), { recursive: true });
    else {
      mkdirSync(join(dir, bare, '..'), { recursive: true });
      writeFileSync(join(dir, bare), 'x\n');
    }
  });
}

/** A fresh repository (`git init`, nothing committed) holding `files`. */
export function gitRepo(files: Record<string, string>): string {
  const dir = tempDir('lathe-git-');
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  git(dir, ['init', '-q']);
  return dir;
}
