import { spawnSync } from 'node:child_process';
import fs, { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CheckpointStore, shadowGitDir } from '../../src/checkpoints/index.js';
import { createRuntime, type Runtime } from '../../src/runtime/create_runtime.js';
import { testNeeds } from '../support/required_programs.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { countingGit, treeState } from './fixture.js';

let runtime: Runtime | undefined;
afterEach(async () => {
  await runtime?.dispose();
  runtime = undefined;
});

/** A workspace of 40 files and an ignore rule, and a runtime in it whose git calls are logged. */
function start() {
  const dir = tempDir('lathe-ws-');
  mkdirSync(join(dir, 'src'));
  for (let i = 0; i < 40; i++) writeFileSync(join(dir, 'src', `f${i}.ts`), `export const v${i} = ${i};\n`);
  writeFileSync(join(dir, '.gitignore'), '*.log\n');
  writeFileSync(join(dir, 'kept.log'), 'ignored, there from the start\n');
  const git = countingGit();
  const home = tempDir('lathe-home-');
  runtime = createRuntime({
    cwd: dir,
    documentsRoot: home,
    yolo: true,
    settings: { lsp: { diagnosticsAfterEdit: false } },
    env: { ...git.env, NODE_ENV: 'test', LATHE_FEATURES: '' },
  });
  const store = runtime.checkpoints.store(runtime.workspace) as CheckpointStore;
  return { dir, home, git, runtime, store };
}

/** Runs a call that must succeed. */
async function edit(runtime: Runtime, tool: string, input: Record<string, unknown>): Promise<void> {
  const result = await runtime.runTool(tool, input);
  expect(result.isError, result.text).toBe(false);
}

/** The paths a tree of the shadow repository holds. */
function treeFiles(home: string, workspace: string, tree: string): string[] {
  const listed = spawnSync('git', ['ls-tree', '-r', '--name-only', '-z', tree], {
    env: { ...process.env, GIT_DIR: shadowGitDir(home, workspace) },
    encoding: 'utf8',
  });
  return listed.stdout.split('\0').filter(Boolean);
}

/** The pack files of the shadow repository: a tree snapshot writes one, a saved file or a mark none. */
function packs(home: string, workspace: string): string[] {
  const folder = join(shadowGitDir(home, workspace), 'objects', 'pack');
  return existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith('.pack')) : [];
}

describe('a checkpoint before an edit', () => {
  it('saves exactly the files the edit names, with no git process, and a restore brings them back', async () => {
    const { dir, home, git, runtime, store } = start();
    const before = treeState(dir);
    await runtime.runTool('read_file', { path: 'src/f3.ts' });
    await edit(runtime, 'edit_file', { path: 'src/f3.ts', old_string: '= 3', new_string: '= 33' });
    await edit(runtime, 'write_to_file', { path: 'src/new.ts', content: 'new\n' });
    expect(git.shadowCalls()).toEqual([]);
    expect(packs(home, runtime.workspace)).toEqual([]);

    const [first, second] = await store.list();
    expect([first.scope, first.files]).toEqual(['files', { 'src/f3.ts': ['100644', expect.any(String)] }]);
    expect(treeFiles(home, runtime.workspace, first.tree)).toEqual(['src/f3.ts']);
    expect([second.scope, second.files]).toEqual(['files', { 'src/new.ts': null }]);

    const { change } = await store.restore(first);
    expect(change).toMatchObject({ written: 1, removed: 1 });
    expect(treeState(dir)).toEqual(before);
    expect(git.shadowCalls()).not.toContain('fast-import');
  });
});

describe('a prompt', () => {
  it('that only reads takes no snapshot of the tree: its mark is one loose commit, no git process', async () => {
    const { dir, home, git, runtime, store } = start();
    expect(await runtime.checkpointTurn('look around', [])).toBeUndefined();
    await runtime.runTool('read_file', { path: 'src/f1.ts' });
    await runtime.runTool('execute_command', { command: 'ls src && cat src/f2.ts' });
    expect(git.shadowCalls()).toEqual([]);
    expect(packs(home, runtime.workspace)).toEqual([]);
    expect(existsSync(join(shadowGitDir(home, runtime.workspace), 'lathe-stats.json'))).toBe(false);
    const [mark] = await store.list();
    expect(mark).toMatchObject({ kind: 'turn', label: 'look around', scope: 'files', files: {} });
    expect(treeFiles(home, dir, mark.tree)).toEqual([]);
    expect(await store.undo()).toBeUndefined();
  });

  testNeeds('bwrap')(
    'undone brings back what its edits and its commands changed, ignored files its edits named too',
    async () => {
      const { dir, git, runtime, store } = start();
      const before = treeState(dir);
      await runtime.checkpointTurn('change things', []);
      await runtime.runTool('read_file', { path: 'src/f1.ts' });
      await edit(runtime, 'edit_file', { path: 'src/f1.ts', old_string: '= 1', new_string: '= 11' });
      await edit(runtime, 'execute_command', {
        command: 'echo changed > src/f2.ts && rm src/f3.ts && echo made > src/made.ts',
      });
      expect(git.shadowCalls()).toContain('fast-import');
      await runtime.runTool('read_file', { path: 'src/made.ts' });
      await edit(runtime, 'edit_file', { path: 'src/made.ts', old_string: 'made', new_string: 'edited' });
      await runtime.runTool('read_file', { path: 'kept.log' });
      await edit(runtime, 'write_to_file', { path: 'kept.log', content: 'rewritten\n' });
      await edit(runtime, 'write_to_file', { path: 'made.log', content: 'made by an edit\n' });
      expect(readFileSync(join(dir, 'src/made.ts'), 'utf8')).toBe('edited\n');
      writeFileSync(join(dir, 'untouched.log'), 'ignored, made by hand\n');

      const undone = await store.undo();
      expect(undone?.target.label).toBe('change things');
      const { 'untouched.log': byHand, ...after } = treeState(dir);
      expect(after).toEqual(before);
      expect(byHand).toBeDefined();
    },
  );
});

describe('a command that may change files', () => {
  testNeeds('bwrap')('takes a snapshot of the tree first, which a restore goes back to', async () => {
    const { dir, home, git, runtime, store } = start();
    const before = treeState(dir);
    await edit(runtime, 'execute_command', { command: 'echo x > src/x.ts && rm src/f0.ts' });
    expect(git.shadowCalls()).toEqual(['fast-import']);
    const [snapshot] = await store.list();
    expect(snapshot).toMatchObject({
      kind: 'call',
      scope: 'tree',
      label: 'Run echo x > src/x.ts && rm src/f0.ts',
    });
    expect(treeFiles(home, dir, snapshot.tree)).toHaveLength(41);
    await store.restore(snapshot);
    expect(treeState(dir)).toEqual(before);
  });

  it('is snapshotted off the main thread: no file of the workspace is read here', async () => {
    const dir = tempDir('lathe-ws-');
    for (let i = 0; i < 50; i++) writeFileSync(join(dir, `f${i}.txt`), `${i}\n`);
    const store = new CheckpointStore({
      workspace: dir,
      documentsRoot: tempDir('lathe-home-'),
      keep: 10,
      maxAgeDays: 1,
    });
    const seen = watchFileCalls(dir);
    try {
      await store.take({ kind: 'call', label: 'a command' });
      expect(seen.splice(0)).toEqual([]);
      writeFileSync(join(dir, 'f7.txt'), 'changed\n');
      await store.take({ kind: 'call', label: 'another' });
      expect(seen.splice(0)).toEqual([]);
      // The watch sees this thread's reads: an edit's copy is read here.
      await store.saveFiles({ kind: 'call', label: 'an edit' }, ['f1.txt']);
      expect(seen).toContain(join(dir, 'f1.txt'));
    } finally {
      seen.stop();
      await store.close();
    }
  });
});

/** The workspace paths this thread's lstat, readdir and readFile calls name, until `stop`. */
function watchFileCalls(dir: string): string[] & { stop(): void } {
  const seen = [] as unknown as string[] & { stop(): void };
  const names = ['lstatSync', 'readdirSync', 'readFileSync', 'readlinkSync'] as const;
  const originals = names.map((name) => fs[name]);
  names.forEach((name, i) => {
    const original = originals[i] as (...args: unknown[]) => unknown;
    (fs as unknown as Record<string, unknown>)[name] = (path: unknown, ...rest: unknown[]) => {
      if (typeof path === 'string' && path.startsWith(dir)) seen.push(path);
      return original(path, ...rest);
    };
  });
  syncBuiltinESMExports();
  seen.stop = () => {
    names.forEach((name, i) => {
      (fs as unknown as Record<string, unknown>)[name] = originals[i];
    });
    syncBuiltinESMExports();
  };
  return seen;
}
