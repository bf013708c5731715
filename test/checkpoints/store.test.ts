import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckpointStore } from '../../src/checkpoints/index.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { awkwardWorkspace, repositoryState, treeState, userGit } from './fixture.js';

function storeFor(workspace: string, options: { keep?: number; exclude?: string[] } = {}) {
  return new CheckpointStore({
    workspace,
    documentsRoot: tempDir('lathe-home-'),
    keep: options.keep ?? 100,
    maxAgeDays: 30,
    exclude: options.exclude,
  });
}

describe('a checkpoint and its restore', () => {
  it('bring back a tree with a nested repository, a submodule, untracked and ignored files byte for byte', async () => {
    const dir = awkwardWorkspace();
    const store = storeFor(dir);
    const before = treeState(dir);
    const repos = {
      outer: repositoryState(dir),
      nested: repositoryState(join(dir, 'vendor/lib')),
      sub: repositoryState(join(dir, 'mods/sub')),
    };
    const checkpoint = await store.take({ kind: 'turn', label: 'start' }, { always: true });

    writeFileSync(join(dir, 'keep.txt'), 'line one\nchanged\n');
    writeFileSync(join(dir, 'new.txt'), '\n');
    rmSync(join(dir, 'tracked.txt'));
    rmSync(join(dir, 'src'), { recursive: true });
    chmodSync(join(dir, 'script.sh'), 0o644);
    writeFileSync(join(dir, 'vendor/lib/lib.txt'), 'changed in the nested repository\n');
    writeFileSync(join(dir, 'mods/sub/added.txt'), 'new in the submodule\n');
    rmSync(join(dir, 'mods/sub/sub.txt'));
    symlinkSync('keep.txt', join(dir, 'link'));
    expect(treeState(dir)).not.toEqual(before);

    const result = await store.restore(checkpoint);
    expect(treeState(dir)).toEqual(before);
    expect(result.change.removed).toBe(3);
    expect(repositoryState(dir)).toEqual(repos.outer);
    expect(repositoryState(join(dir, 'vendor/lib'))).toEqual(repos.nested);
    expect(repositoryState(join(dir, 'mods/sub'))).toEqual(repos.sub);
  });

  it('is itself checkpointed: restoring the checkpoint taken before it brings the changes back', async () => {
    const dir = awkwardWorkspace();
    const store = storeFor(dir);
    const start = await store.take({ kind: 'turn', label: 'start' }, { always: true });
    writeFileSync(join(dir, 'keep.txt'), 'edited\n');
    writeFileSync(join(dir, 'made.txt'), 'made\n');
    const edited = treeState(dir);
    const { before } = await store.restore(start);
    expect(existsSync(join(dir, 'made.txt'))).toBe(false);
    expect(before.kind).toBe('restore');
    await store.restore(before);
    expect(treeState(dir)).toEqual(edited);
  });

  it('never holds or removes ignored files, and leaves files over 5 MB out, named', async () => {
    const dir = awkwardWorkspace();
    writeFileSync(join(dir, 'big.bin'), Buffer.alloc(6 * 1024 * 1024, 1));
    const store = storeFor(dir);
    const checkpoint = await store.take({ kind: 'turn', label: 'start' }, { always: true });
    expect(checkpoint.skipped).toEqual([{ path: 'big.bin', reason: 'over 5 MB (6.0 MB)' }]);
    const files = userGit(
      dir,
      '--git-dir',
      store.repo.gitDir,
      'ls-tree',
      '-r',
      '--name-only',
      checkpoint.tree,
    );
    expect(files.split('\n')).toEqual(
      expect.arrayContaining([
        'keep.txt',
        'notes.txt',
        'vendor/lib/lib.txt',
        'mods/sub/sub.txt',
        '.gitmodules',
      ]),
    );
    expect(files).not.toMatch(/app\.log|build\/|big\.bin|\.git\//);

    writeFileSync(join(dir, 'later.log'), 'ignored, made later\n');
    writeFileSync(join(dir, 'big.bin'), Buffer.alloc(7 * 1024 * 1024, 2));
    await store.restore(checkpoint);
    expect(readFileSync(join(dir, 'later.log'), 'utf8')).toBe('ignored, made later\n');
    expect(readFileSync(join(dir, 'app.log'), 'utf8')).toBe('ignored\n');
    expect(readFileSync(join(dir, 'big.bin')).length).toBe(7 * 1024 * 1024);
  });

  it('leaves out what checkpoints.exclude names', async () => {
    const dir = awkwardWorkspace();
    mkdirSync(join(dir, 'data'));
    writeFileSync(join(dir, 'data/huge.csv'), 'a,b\n');
    const store = storeFor(dir, { exclude: ['data/'] });
    const checkpoint = await store.take({ kind: 'turn', label: 'start' }, { always: true });
    const files = userGit(
      dir,
      '--git-dir',
      store.repo.gitDir,
      'ls-tree',
      '-r',
      '--name-only',
      checkpoint.tree,
    );
    expect(files).not.toContain('data/');
    expect(files).toContain('notes.txt');
  });

  it('works the same in a folder that is no git repository', async () => {
    const dir = tempDir('lathe-plain-');
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    const store = storeFor(dir);
    const start = await store.take({ kind: 'turn', label: 'start' }, { always: true });
    writeFileSync(join(dir, 'a.txt'), 'changed\n');
    writeFileSync(join(dir, 'b.txt'), 'b\n');
    await store.restore(start);
    expect(treeState(dir)).toEqual({ 'a.txt': `644 ${sha('a\n')}` });
    expect(existsSync(join(dir, '.git'))).toBe(false);
  });
});

describe('the checkpoints kept', () => {
  it('take no new checkpoint before a call when nothing changed', async () => {
    const dir = awkwardWorkspace();
    const store = storeFor(dir);
    const first = await store.take({ kind: 'call', label: 'one' });
    const second = await store.take({ kind: 'call', label: 'two' });
    expect(second.commit).toBe(first.commit);
    writeFileSync(join(dir, 'keep.txt'), 'changed\n');
    const third = await store.take({ kind: 'call', label: 'three' });
    expect(third.commit).not.toBe(first.commit);
    expect((await store.list()).map((c) => c.label)).toEqual(['one', 'three']);
  });

  it('are bounded by keep: the oldest are pruned as new ones come', async () => {
    const dir = tempDir('lathe-plain-');
    const store = storeFor(dir, { keep: 3 });
    for (let i = 1; i <= 5; i++) {
      writeFileSync(join(dir, 'a.txt'), `${i}\n`);
      await store.take({ kind: 'call', label: `call ${i}` });
    }
    expect((await store.list()).map((c) => c.label)).toEqual(['call 3', 'call 4', 'call 5']);
    await store.prune();
    expect(await store.diskUsage()).toBeGreaterThan(0);
    expect((await store.list()).length).toBe(3);
  });

  it('undo goes back one prompt at a time, to the last prompt that changed files', async () => {
    const dir = tempDir('lathe-plain-');
    writeFileSync(join(dir, 'a.txt'), 'v1\n');
    const store = storeFor(dir);
    await store.take({ kind: 'turn', label: 'first prompt' }, { always: true });
    writeFileSync(join(dir, 'a.txt'), 'v2\n');
    await store.take({ kind: 'turn', label: 'second prompt' }, { always: true });
    writeFileSync(join(dir, 'a.txt'), 'v3\n');
    await store.take({ kind: 'turn', label: 'a prompt that changed nothing' }, { always: true });

    expect((await store.undo())?.target.label).toBe('second prompt');
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('v2\n');
    expect((await store.undo())?.target.label).toBe('first prompt');
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('v1\n');
    expect(await store.undo()).toBeUndefined();
  });

  it('find a checkpoint by the start of its id, and say so when none matches', async () => {
    const dir = tempDir('lathe-plain-');
    const store = storeFor(dir);
    const made = await store.take({ kind: 'turn', label: 'x' }, { always: true });
    expect((await store.find(made.id.slice(0, 5))).commit).toBe(made.commit);
    await expect(store.find('ffffffff')).rejects.toThrow(/no checkpoint ffffffff in this workspace/);
    await expect(store.find('../x')).rejects.toThrow(/is not a checkpoint id/);
  });
});

function sha(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
