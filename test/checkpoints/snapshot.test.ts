import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckpointStore } from '../../src/checkpoints/index.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { countingGit, treeState } from './fixture.js';

/** The one shadow repository under a home. */
function shadowRepoOf(home: string): string {
  const name = readdirSync(join(home, 'checkpoints')).find((entry) => entry.endsWith('.git')) ?? '';
  return join(home, 'checkpoints', name);
}

/** What git prints in a shadow repository: its errors and warnings too, but not its notices. */
function gitIn(gitDir: string, args: string[]): string {
  const run = spawnSync('git', args, { env: { ...process.env, GIT_DIR: gitDir }, encoding: 'utf8' });
  const said = `${run.stdout}${run.stderr}`.replace(/^notice: .*\n/gm, '');
  return run.status === 0 ? said : `git ${args[0]} failed: ${said}`;
}

function storeFor(workspace: string, documentsRoot: string, env?: NodeJS.ProcessEnv) {
  return new CheckpointStore({ workspace, documentsRoot, keep: 100, maxAgeDays: 30, env });
}

/** Puts a file's time stamp two minutes back, so its stats are old enough to be trusted. */
function age(path: string): void {
  const past = new Date(Date.now() - 120_000);
  utimesSync(path, past, past);
}

describe('a checkpoint of a workspace', () => {
  it('runs one git process for the first checkpoint of a new workspace, none when nothing changed, and one when a file did', async () => {
    const dir = tempDir('lathe-plain-');
    for (let i = 0; i < 20; i++) writeFileSync(join(dir, `f${i}.txt`), `file ${i}\n`);
    const git = countingGit();
    const store = storeFor(dir, tempDir('lathe-home-'), git.env);
    await store.take({ kind: 'turn', label: 'start' }, { always: true });
    // The shadow repository is made without git, and a new one is known to hold no refs.
    expect(git.calls()).toEqual(['fast-import']);
    const before = git.calls().length;
    await store.take({ kind: 'call', label: 'same' });
    expect(git.calls().slice(before)).toEqual([]);
    writeFileSync(join(dir, 'f3.txt'), 'changed\n');
    const changed = await store.take({ kind: 'call', label: 'changed' });
    expect(git.calls().slice(before)).toEqual(['fast-import']);
    expect((await store.list()).at(-1)?.commit).toBe(changed.commit);
  });

  it('sees a file rewritten with the same size and time stamp', async () => {
    const dir = tempDir('lathe-plain-');
    const file = join(dir, 'a.txt');
    writeFileSync(file, 'aaaa\n');
    age(file);
    const store = storeFor(dir, tempDir('lathe-home-'));
    const first = await store.take({ kind: 'turn', label: 'first' }, { always: true });
    const { mtime } = statSync(file);
    writeFileSync(file, 'bbbb\n');
    utimesSync(file, mtime, mtime);
    const second = await store.take({ kind: 'call', label: 'second' });
    expect(second.tree).not.toBe(first.tree);
    await store.restore(first);
    expect(readFileSync(file, 'utf8')).toBe('aaaa\n');
  });

  it('keeps names with quotes, backslashes, newlines, tabs and non-ASCII letters, links and modes', async () => {
    const dir = tempDir('lathe-plain-');
    const names = [
      'a "quoted" name.txt',
      '"starts with a quote',
      'back\\slash',
      'new\nline',
      'tab\there',
      'ünï cödé ✓.md',
    ];
    mkdirSync(join(dir, 'sub dir'));
    for (const name of names) writeFileSync(join(dir, 'sub dir', name), `${name}\n`);
    writeFileSync(join(dir, 'run.sh'), '#!/bin/sh\n');
    chmodSync(join(dir, 'run.sh'), 0o755);
    symlinkSync('sub dir/back\\slash', join(dir, 'link'));
    const before = treeState(dir);
    const store = storeFor(dir, tempDir('lathe-home-'));
    const first = await store.take({ kind: 'turn', label: 'first' }, { always: true });
    for (const name of names) writeFileSync(join(dir, 'sub dir', name), 'changed\n');
    chmodSync(join(dir, 'run.sh'), 0o644);
    await store.restore(first);
    expect(treeState(dir)).toEqual(before);
  });

  it('in a new process, learns the newest checkpoint and its files from what the last one saved: one git process', async () => {
    const dir = tempDir('lathe-plain-');
    for (let i = 0; i < 20; i++) writeFileSync(join(dir, `f${i}.txt`), `file ${i}\n`);
    const home = tempDir('lathe-home-');
    const first = await storeFor(dir, home).take({ kind: 'turn', label: 'first' }, { always: true });
    writeFileSync(join(dir, 'f3.txt'), 'changed\n');
    const git = countingGit();
    const later = storeFor(dir, home, git.env);
    const second = await later.take({ kind: 'turn', label: 'second' }, { always: true });
    expect(git.calls()).toEqual(['fast-import']);
    expect(second.tree).not.toBe(first.tree);
    await later.restore(first);
    expect(readFileSync(join(dir, 'f3.txt'), 'utf8')).toBe('file 3\n');
  });

  it("takes a prompt's checkpoint of an unchanged workspace, in this process or a new one, with no git process; git reads it as its own", async () => {
    const dir = tempDir('lathe-plain-');
    for (let i = 0; i < 5; i++) writeFileSync(join(dir, `f${i}.txt`), `file ${i}\n`);
    const home = tempDir('lathe-home-');
    const first = await storeFor(dir, home).take({ kind: 'turn', label: 'first' }, { always: true });
    const git = countingGit();
    const later = storeFor(dir, home, git.env);
    const second = await later.take({ kind: 'turn', label: 'second' }, { always: true });
    const third = await later.take({ kind: 'turn', label: 'third' }, { always: true });
    expect(git.calls()).toEqual([]);
    expect([second.tree, third.tree]).toEqual([first.tree, first.tree]);
    expect(new Set([first.commit, second.commit, third.commit]).size).toBe(3);
    expect((await later.list()).map((c) => [c.label, c.commit])).toEqual([
      ['first', first.commit],
      ['second', second.commit],
      ['third', third.commit],
    ]);
    expect(gitIn(shadowRepoOf(home), ['fsck', '--strict', '--no-dangling'])).toBe('');
    writeFileSync(join(dir, 'f1.txt'), 'changed\n');
    await later.restore(second);
    expect(readFileSync(join(dir, 'f1.txt'), 'utf8')).toBe('file 1\n');
  });

  it('takes the checkpoint of an empty workspace with no git process, and restores it', async () => {
    const dir = tempDir('lathe-plain-');
    const home = tempDir('lathe-home-');
    const git = countingGit();
    const store = storeFor(dir, home, git.env);
    const empty = await store.take({ kind: 'turn', label: 'empty' }, { always: true });
    expect(git.calls()).toEqual([]);
    expect(empty.tree).toBe('4b825dc642cb6eb9a060e54bf8d69288fbee4904');
    expect(gitIn(shadowRepoOf(home), ['cat-file', '-p', empty.commit])).toMatch(/^tree 4b825dc6/);
    expect(gitIn(shadowRepoOf(home), ['fsck', '--strict', '--no-dangling'])).toBe('');
    writeFileSync(join(dir, 'new.txt'), 'new\n');
    await store.take({ kind: 'turn', label: 'one file' }, { always: true });
    await store.restore(empty);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('asks git for the newest checkpoint when what was saved is of an older one, or unreadable', async () => {
    const dir = tempDir('lathe-plain-');
    writeFileSync(join(dir, 'a.txt'), 'one\n');
    const home = tempDir('lathe-home-');
    await storeFor(dir, home).take({ kind: 'turn', label: 'first' }, { always: true });
    const repo = readdirSync(join(home, 'checkpoints')).find((name) => name.endsWith('.git')) ?? '';
    const savedPath = join(home, 'checkpoints', repo, 'lathe-stats.json');
    const savedForFirst = readFileSync(savedPath);
    writeFileSync(join(dir, 'a.txt'), 'two\n');
    const second = await storeFor(dir, home).take({ kind: 'turn', label: 'second' }, { always: true });
    for (const [round, saved] of [savedForFirst, Buffer.from('not json')].entries()) {
      writeFileSync(savedPath, saved);
      writeFileSync(join(dir, 'a.txt'), `three ${round}\n`);
      const git = countingGit();
      const later = storeFor(dir, home, git.env);
      const third = await later.take({ kind: 'turn', label: 'third' }, { always: true });
      expect(git.calls()).toEqual(['for-each-ref', 'ls-tree', 'fast-import']);
      expect(third.tree).not.toBe(second.tree);
      await later.restore(second);
      expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('two\n');
    }
  });

  it('in a new process, finds what changed since the last process, through the stats it kept', async () => {
    const dir = tempDir('lathe-plain-');
    for (let i = 0; i < 300; i++) {
      writeFileSync(join(dir, `f${i}.txt`), `file ${i}\n`);
      age(join(dir, `f${i}.txt`));
    }
    const home = tempDir('lathe-home-');
    const first = await storeFor(dir, home).take({ kind: 'turn', label: 'first' }, { always: true });
    const { mtime } = statSync(join(dir, 'f7.txt'));
    writeFileSync(join(dir, 'f7.txt'), 'file X\n');
    utimesSync(join(dir, 'f7.txt'), mtime, mtime);
    const later = storeFor(dir, home);
    const second = await later.take({ kind: 'call', label: 'second' });
    expect(second.tree).not.toBe(first.tree);
    await later.restore(first);
    expect(readFileSync(join(dir, 'f7.txt'), 'utf8')).toBe('file 7\n');
  });
});
