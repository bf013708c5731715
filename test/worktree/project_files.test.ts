import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectProcess } from '../../src/util/collect_process.js';
import { createWorktree, finishWorktree, type SetupRunner, WorktreeError } from '../../src/worktree/index.js';
import { repositoryFolder } from '../../src/worktree/places.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { git, latheBranches, repository, writeFiles } from './repos.js';

/** Runs each setup command with bash in the worktree and remembers where it ran. */
function bashRunner(ran: string[]): SetupRunner {
  return async (command, dir) => {
    ran.push(`${dir}: ${command}`);
    const run = await collectProcess(['bash', '-c', command], { cwd: dir });
    return { exitCode: run.code, output: run.stdout + run.stderr };
  };
}

function settingsRepo(settings: unknown): string {
  return repository({
    'README.md': 'hello\n',
    '.gitignore': '.env\nnode_modules/\n',
    '.agents/worktree.json': JSON.stringify(settings),
  });
}

describe('.agents/worktree.json include', () => {
  it("copies the main checkout's ignored and untracked files the globs match, and never commits them", async () => {
    const repo = settingsRepo({ include: ['.env', 'config/*.local.json', 'node_modules', 'README.md'] });
    writeFiles(repo, {
      '.env': 'SECRET=1\n',
      'config/app.local.json': '{"port": 1}\n',
      'config/other.json': '{}\n',
      'node_modules/dep/index.js': 'module.exports = 1;\n',
      'README.md': 'edited in the main checkout\n',
    });
    const home = tempDir('lathe-home-');
    const worktree = await createWorktree({ repo, name: 'inc', documentsRoot: home });
    expect(readFileSync(join(worktree.dir, '.env'), 'utf8')).toBe('SECRET=1\n');
    expect(readFileSync(join(worktree.dir, 'config/app.local.json'), 'utf8')).toBe('{"port": 1}\n');
    expect(readFileSync(join(worktree.dir, 'node_modules/dep/index.js'), 'utf8')).toBe(
      'module.exports = 1;\n',
    );
    expect(existsSync(join(worktree.dir, 'config/other.json'))).toBe(false);
    // A tracked file stays as committed: include is for what the checkout lacks.
    expect(readFileSync(join(worktree.dir, 'README.md'), 'utf8')).toBe('hello\n');
    expect(worktree.notes).toContain(
      'copied from the main checkout (never committed): .env, config/app.local.json, node_modules',
    );

    writeFileSync(join(worktree.dir, 'work.txt'), 'done\n');
    const result = await finishWorktree(worktree, {});
    expect(result.outcome).toBe('committed');
    const committed = git(repo, 'diff', '--name-only', worktree.baseSha, worktree.branch).trim();
    expect(committed).toBe('work.txt');
  });

  it('leaves a worktree with only copied files unchanged: it is removed', async () => {
    const repo = settingsRepo({ include: ['untracked.txt'] });
    writeFiles(repo, { 'untracked.txt': 'not ignored, not tracked\n' });
    const home = tempDir('lathe-home-');
    const worktree = await createWorktree({ repo, name: 'only-copies', documentsRoot: home });
    expect(existsSync(join(worktree.dir, 'untracked.txt'))).toBe(true);
    expect(await finishWorktree(worktree, {})).toEqual({ outcome: 'removed' });
    expect(latheBranches(repo)).toEqual([]);
  });
});

describe('.agents/worktree.json setup', () => {
  it('runs each command once, in the new worktree, when the folder is trusted', async () => {
    const repo = settingsRepo({ setup: ['echo one >> setup.log', 'echo two >> setup.log'] });
    const ran: string[] = [];
    const worktree = await createWorktree({
      repo,
      name: 'set',
      documentsRoot: tempDir('lathe-home-'),
      trusted: true,
      runSetup: bashRunner(ran),
    });
    expect(ran).toEqual([`${worktree.dir}: echo one >> setup.log`, `${worktree.dir}: echo two >> setup.log`]);
    expect(readFileSync(join(worktree.dir, 'setup.log'), 'utf8')).toBe('one\ntwo\n');
    expect(existsSync(join(repo, 'setup.log'))).toBe(false);
  });

  it('is refused in an untrusted folder: nothing runs, and the result says why', async () => {
    const repo = settingsRepo({ setup: 'touch ran-setup' });
    const ran: string[] = [];
    const worktree = await createWorktree({
      repo,
      name: 'untrusted',
      documentsRoot: tempDir('lathe-home-'),
      trusted: false,
      runSetup: bashRunner(ran),
    });
    expect(ran).toEqual([]);
    expect(existsSync(join(worktree.dir, 'ran-setup'))).toBe(false);
    expect(worktree.notes.join('\n')).toMatch(
      /setup commands of .*worktree\.json were not run: this folder is not trusted/,
    );
  });

  it('that fails takes the worktree away and says what the command printed', async () => {
    const repo = settingsRepo({ setup: ['echo installing; echo broken >&2; exit 3'] });
    const home = tempDir('lathe-home-');
    const error = await createWorktree({
      repo,
      name: 'broken',
      documentsRoot: home,
      trusted: true,
      runSetup: bashRunner([]),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorktreeError);
    expect((error as Error).message).toMatch(
      /^worktree "broken" was not made: setup command .* exited with status 3/,
    );
    expect((error as Error).message).toContain('broken');
    expect(latheBranches(repo)).toEqual([]);
    expect(git(repo, 'worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
    expect(readdirSync(repositoryFolder(home, join(repo, '.git')))).toEqual([]);
  });

  it('whose runner refuses (no sandbox) makes nothing', async () => {
    const repo = settingsRepo({ setup: ['npm ci'] });
    const home = tempDir('lathe-home-');
    const refuse: SetupRunner = async () => {
      throw new WorktreeError('setup command "npm ci" runs only in the sandbox, which is off');
    };
    const error = await createWorktree({
      repo,
      name: 'nosbx',
      documentsRoot: home,
      trusted: true,
      runSetup: refuse,
    }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/was not made: setup command "npm ci" runs only in the sandbox/);
    expect(latheBranches(repo)).toEqual([]);
  });
});
