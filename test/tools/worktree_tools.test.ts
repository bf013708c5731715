import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../src/runtime/create_runtime.js';
import { testNeeds } from '../support/required_programs.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { checkoutState, git, latheBranches, repository, writeFiles } from '../worktree/repos.js';

const made: Runtime[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((rt) => rt.dispose()));
});

/** A runtime in `repo` with the worktree tools; edits in the workspace and commands are approved. */
function runtimeIn(repo: string, options: Parameters<typeof createRuntime>[0] = {}): Runtime {
  const rt = createRuntime({
    cwd: repo,
    documentsRoot: tempDir('lathe-home-'),
    env: {},
    features: ['worktree'],
    approve: ['edit', 'executeAll'],
    ...options,
  });
  made.push(rt);
  return rt;
}

describe('enter_worktree and exit_worktree', () => {
  it('are offered only with the worktree feature', () => {
    const repo = repository();
    const names = (features: string[]) => runtimeIn(repo, { features }).pool.map((t) => t.name);
    expect(names(['worktree'])).toEqual(expect.arrayContaining(['enter_worktree', 'exit_worktree']));
    expect(names([])).not.toContain('enter_worktree');
  });

  it('move the session into a worktree and back; an unchanged one is removed with its branch', async () => {
    const repo = repository();
    const rt = runtimeIn(repo);
    const entered = await rt.runTool('enter_worktree', { name: 'look' });
    expect(entered.isError, entered.text).toBe(false);
    const dir = (entered.data as { dir: string }).dir;
    expect(entered.text).toContain(`Now working in worktree look: ${dir}, on branch lathe/look`);
    expect(rt.place).toMatchObject({ workspace: dir, cwd: dir });
    expect(latheBranches(repo)).toEqual(['lathe/look']);

    const listed = await rt.runTool('list_files', { path: '.' });
    expect(listed.text).toContain('README.md');

    const left = await rt.runTool('exit_worktree', {});
    expect(left.isError, left.text).toBe(false);
    expect(left.text).toMatch(/nothing had changed, so its folder and branch lathe\/look were removed/);
    expect(rt.place).toMatchObject({ workspace: repo, cwd: repo });
    expect(existsSync(dir)).toBe(false);
    expect(latheBranches(repo)).toEqual([]);
  });

  it('commit the work on the branch when leaving, with its diffstat; the main checkout is untouched', async () => {
    const repo = repository();
    const before = checkoutState(repo);
    const rt = runtimeIn(repo);
    await rt.runTool('enter_worktree', { name: 'work' });
    const wrote = await rt.runTool('write_to_file', { path: 'feature.txt', content: 'new feature\n' });
    expect(wrote.isError, wrote.text).toBe(false);
    expect(existsSync(join(repo, 'feature.txt'))).toBe(false);

    const left = await rt.runTool('exit_worktree', {});
    expect(left.isError, left.text).toBe(false);
    expect(left.text).toMatch(/the changes are committed on branch lathe\/work \([0-9a-f]{12}\)/);
    expect(left.text).toMatch(/feature\.txt \| 1 \+\n 1 file changed, 1 insertion\(\+\)/);
    expect(git(repo, 'show', 'lathe/work:feature.txt')).toBe('new feature\n');
    expect(checkoutState(repo)).toEqual(before);
  });

  it('keep the worktree and its uncommitted changes with keep', async () => {
    const repo = repository();
    const rt = runtimeIn(repo);
    const entered = await rt.runTool('enter_worktree', {});
    const dir = (entered.data as { dir: string; name: string }).dir;
    expect((entered.data as { name: string }).name).toMatch(/^wt-[0-9a-f]{6}$/);
    await rt.runTool('write_to_file', { path: 'draft.txt', content: 'draft\n' });
    const left = await rt.runTool('exit_worktree', { keep: true });
    expect(left.text).toContain('as it is, uncommitted changes and all');
    expect(readFileSync(join(dir, 'draft.txt'), 'utf8')).toBe('draft\n');
    expect(rt.place.workspace).toBe(repo);
  });

  it('refuse to enter twice, to leave when not in one, and a name that exists', async () => {
    const repo = repository();
    const rt = runtimeIn(repo);
    expect((await rt.runTool('exit_worktree', {})).text).toMatch(/Not in a worktree/);
    await rt.runTool('enter_worktree', { name: 'first' });
    const again = await rt.runTool('enter_worktree', { name: 'second' });
    expect(again.isError).toBe(true);
    expect(again.text).toMatch(/Already in worktree first/);
    await rt.runTool('exit_worktree', { keep: true });
    const taken = await rt.runTool('enter_worktree', { name: 'first' });
    expect(taken.isError).toBe(true);
    expect(taken.text).toMatch(/worktree named "first" exists already/);
    expect(rt.place.workspace).toBe(repo);
  });

  it('say so, and stay in the main checkout, when the folder is not a repository', async () => {
    const folder = tempDir('lathe-not-git-');
    const rt = runtimeIn(folder);
    const entered = await rt.runTool('enter_worktree', {});
    expect(entered.isError).toBe(true);
    expect(entered.text).toMatch(/is not in a git repository/);
    expect(rt.place.workspace).toBe(folder);
  });
});

describe('the workspace after enter_worktree', () => {
  it('puts the main checkout outside it: an edit there is editOutside, and asked (denied headless)', async () => {
    const repo = repository();
    const rt = runtimeIn(repo);
    const target = join(repo, 'README.md');
    expect(rt.permissions.decidePath('write_to_file', 'edit', target)).toEqual({ behavior: 'allow' });
    await rt.runTool('enter_worktree', { name: 'fence' });
    const decision = rt.permissions.decidePath('write_to_file', 'edit', target);
    expect(decision).toMatchObject({ behavior: 'ask', category: 'editOutside' });
    const wrote = await rt.runTool('write_to_file', { path: target, content: 'changed\n' });
    expect(wrote.isError).toBe(true);
    expect(wrote.permissionDenial?.category).toBe('editOutside');
    expect(readFileSync(target, 'utf8')).toBe('hello\n');
    // Back home, the main checkout is the workspace again.
    await rt.runTool('exit_worktree', {});
    expect(rt.permissions.decidePath('write_to_file', 'edit', target)).toEqual({ behavior: 'allow' });
  });

  testNeeds('bwrap')('lets a sandboxed command write in the worktree only', async () => {
    const repo = repository();
    const rt = runtimeIn(repo, { settings: { sandbox: { mode: 'workspace-write' } } });
    expect(await rt.checkSandbox()).toEqual({ active: true });
    const write = (file: string) => `echo written > ${join(repo, file)}; echo written > here.txt`;
    // At home the main checkout is the writable root.
    expect((await rt.runTool('execute_command', { command: write('before.txt') })).isError).toBe(false);
    expect(readFileSync(join(repo, 'before.txt'), 'utf8')).toBe('written\n');

    await rt.runTool('enter_worktree', { name: 'sbx' });
    const dir = rt.place.workspace;
    await rt.runTool('execute_command', { command: write('escaped.txt') });
    expect(readFileSync(join(dir, 'here.txt'), 'utf8')).toBe('written\n');
    expect(existsSync(join(repo, 'escaped.txt'))).toBe(false);

    // Back home, the main checkout is writable again.
    await rt.runTool('exit_worktree', { keep: true });
    await rt.runTool('execute_command', { command: write('after.txt') });
    expect(readFileSync(join(repo, 'after.txt'), 'utf8')).toBe('written\n');
  });
});

describe('setup commands of .agents/worktree.json through enter_worktree', () => {
  const settingsRepo = (repoSetup: string) =>
    repository({ 'README.md': 'hello\n', '.agents/worktree.json': JSON.stringify({ setup: [repoSetup] }) });

  testNeeds('bwrap')(
    'run in the sandbox, writing only in the new worktree, when the folder is trusted',
    async () => {
      const repo = repository();
      writeFiles(repo, {
        '.agents/worktree.json': JSON.stringify({
          setup: [`echo ran > setup.txt; echo leaked > ${join(repo, 'leak.txt')}; true`],
        }),
      });
      const rt = runtimeIn(repo, { trust: true });
      const entered = await rt.runTool('enter_worktree', { name: 'setup' });
      expect(entered.isError, entered.text).toBe(false);
      expect(entered.text).toContain('Note: ran the setup commands of');
      expect(readFileSync(join(rt.place.workspace, 'setup.txt'), 'utf8')).toBe('ran\n');
      expect(existsSync(join(repo, 'leak.txt'))).toBe(false);
    },
  );

  it('are not run in an untrusted folder, and the result says why', async () => {
    const repo = settingsRepo('echo ran > setup.txt');
    const rt = runtimeIn(repo);
    expect(rt.trust.trusted).toBe(false);
    const entered = await rt.runTool('enter_worktree', { name: 'untrusted' });
    expect(entered.isError, entered.text).toBe(false);
    expect(entered.text).toMatch(/Note: setup commands of .* were not run: this folder is not trusted/);
    expect(existsSync(join(rt.place.workspace, 'setup.txt'))).toBe(false);
  });

  it('never run bare: with the sandbox off, no worktree is made', async () => {
    const repo = settingsRepo('echo ran > setup.txt');
    const rt = runtimeIn(repo, { trust: true, settings: { sandbox: { mode: 'off' } } });
    const entered = await rt.runTool('enter_worktree', { name: 'bare' });
    expect(entered.isError).toBe(true);
    expect(entered.text).toMatch(
      /worktree "bare" was not made: setup command "echo ran > setup.txt" runs only in the sandbox/,
    );
    expect(rt.place.workspace).toBe(repo);
    expect(latheBranches(repo)).toEqual([]);
  });
});
