import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../support/runtime_fixtures.js';

/** git as a user runs it in their own repository, with an identity and no global configuration. */
export function userGit(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'protocol.file.allow=always', ...args], {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 'user',
      GIT_AUTHOR_EMAIL: 'user@example.com',
      GIT_COMMITTER_NAME: 'user',
      GIT_COMMITTER_EMAIL: 'user@example.com',
    },
  });
}

function write(dir: string, files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
}

/**
 * A workspace with everything checkpoints must leave alone or get right: a repository with
 * tracked, untracked and ignored files and a stash entry, a nested repository (its own `.git`
 * folder, not a submodule), and a submodule (a `.git` file pointing into the outer repository).
 */
export function awkwardWorkspace(): string {
  const upstream = tempDir('lathe-upstream-');
  userGit(upstream, 'init', '-q', '-b', 'main');
  write(upstream, { 'sub.txt': 'submodule file\n' });
  userGit(upstream, 'add', '-A');
  userGit(upstream, 'commit', '-qm', 'upstream');

  const dir = tempDir('lathe-ws-');
  userGit(dir, 'init', '-q', '-b', 'main');
  write(dir, {
    'tracked.txt': 'tracked\n',
    'keep.txt': 'line one\nline two\n',
    'script.sh': '#!/bin/sh\necho hi\n',
    '.gitignore': '*.log\nbuild/\n',
    'src/a.txt': 'a\n',
  });
  execFileSync('chmod', ['755', join(dir, 'script.sh')]);
  userGit(dir, 'add', '-A');
  userGit(dir, 'commit', '-qm', 'first');
  userGit(dir, 'submodule', 'add', '-q', upstream, 'mods/sub');
  userGit(dir, 'commit', '-qm', 'submodule');
  // A stash entry, then the tree as it was.
  writeFileSync(join(dir, 'tracked.txt'), 'stashed change\n');
  userGit(dir, 'stash', '-q');

  const nested = join(dir, 'vendor', 'lib');
  mkdirSync(nested, { recursive: true });
  userGit(nested, 'init', '-q', '-b', 'main');
  write(nested, { 'lib.txt': 'nested repository\n' });
  userGit(nested, 'add', '-A');
  userGit(nested, 'commit', '-qm', 'nested');

  write(dir, { 'notes.txt': 'untracked\n', 'app.log': 'ignored\n', 'build/out.bin': 'ignored too\n' });
  return dir;
}

/** What a user's repository is: HEAD, a hash of the index file, every ref, the stash list. */
export function repositoryState(dir: string): Record<string, string> {
  const gitDir = userGit(dir, 'rev-parse', '--absolute-git-dir').trim();
  return {
    head: userGit(dir, 'rev-parse', 'HEAD'),
    index: createHash('sha256')
      .update(readFileSync(join(gitDir, 'index')))
      .digest('hex'),
    refs: userGit(dir, 'for-each-ref'),
    stash: userGit(dir, 'stash', 'list'),
  };
}

/**
 * Every entry of a tree outside `.git` folders: content hash and mode of files, targets of
 * links; `.git` entries are listed by kind (a renamed or moved one shows).
 */
export function treeState(dir: string): Record<string, string> {
  const state: Record<string, string> = {};
  const visit = (rel: string) => {
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      const stat = lstatSync(join(dir, path));
      if (entry.name === '.git') state[path] = stat.isDirectory() ? '.git folder' : '.git file';
      else if (entry.isDirectory()) visit(path);
      else if (entry.isSymbolicLink()) state[path] = `link ${readlinkSync(join(dir, path))}`;
      else
        state[path] = `${(stat.mode & 0o777).toString(8)} ${createHash('sha256')
          .update(readFileSync(join(dir, path)))
          .digest('hex')}`;
    }
  };
  visit('');
  return state;
}

/** The subcommand of a git command line: the first word that is no option nor a `-c` value. */
function subcommand(line: string): string {
  const words = line.split(' ');
  for (let i = 0; i < words.length; i++) {
    if (words[i] === '-c') i++;
    else if (!words[i].startsWith('-')) return words[i];
  }
  return '';
}

/**
 * A PATH whose `git` logs each call's subcommand, then runs the real git: `calls` every call,
 * `shadowCalls` those in a shadow repository of checkpoints (GIT_DIR under a `checkpoints` folder).
 */
export function countingGit(): {
  env: NodeJS.ProcessEnv;
  calls: () => string[];
  shadowCalls: () => string[];
} {
  const bin = tempDir('lathe-git-shim-');
  const log = join(bin, 'calls.log');
  writeFileSync(log, '');
  const shim = join(bin, 'git');
  writeFileSync(shim, `#!/bin/sh\necho "$GIT_DIR|$*" >> '${log}'\nexec /usr/bin/git "$@"\n`);
  chmodSync(shim, 0o755);
  const lines = () =>
    readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => ({ gitDir: line.slice(0, line.indexOf('|')), args: line.slice(line.indexOf('|') + 1) }));
  return {
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
    calls: () => lines().map((line) => subcommand(line.args)),
    shadowCalls: () =>
      lines()
        .filter((line) => /\/checkpoints\/[0-9a-f]+\.git$/.test(line.gitDir))
        .map((line) => subcommand(line.args)),
  };
}
