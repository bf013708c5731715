import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ShadowRepo } from '../../src/checkpoints/shadow_repo.js';
import { SnapshotThread } from '../../src/checkpoints/snapshot_thread.js';
import { type SnapshotSetup, TreeSnapshotter } from '../../src/checkpoints/tree_snapshotter.js';
import { eventually } from '../support/processes.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { countingGit } from './fixture.js';

/**
 * 30 files in a new shadow repository, once their stats can be trusted: lathe keeps no stats of a
 * file changed (its inode's change time, which no one can set back) within 2 s of reading it.
 */
async function workspace(env?: NodeJS.ProcessEnv): Promise<SnapshotSetup & { dir: string }> {
  const dir = tempDir('lathe-indexed-');
  for (let i = 0; i < 30; i++) {
    writeFileSync(join(dir, `f${i}.txt`), `file ${i}\n`);
    age(join(dir, `f${i}.txt`));
  }
  const changedAt = Math.max(...readdirSync(dir).map((name) => statSync(join(dir, name)).ctimeMs));
  while (Date.now() - changedAt < 2_100) await sleep(50);
  const gitDir = join(tempDir('lathe-home-'), 'shadow.git');
  new ShadowRepo(gitDir, dir).ensure();
  // Git compares the stats from the first file and the first snapshot on (in use: 10,000 files, the third).
  return { dir, gitDir, workspace: dir, indexedFrom: 1, indexAfter: 1, env };
}

function age(path: string): void {
  const past = new Date(Date.now() - 120_000);
  utimesSync(path, past, past);
}

/** Rewrites a file with bytes of the same length and puts its time stamp back. */
function rewriteInPlace(path: string, text: string): void {
  const { mtime } = statSync(path);
  writeFileSync(path, text);
  utimesSync(path, mtime, mtime);
}

let n = 0;
const take = (snapshotter: TreeSnapshotter) =>
  snapshotter.snapshot({
    ref: `refs/lathe/checkpoints/t-${n++}`,
    at: Date.now(),
    meta: { kind: 'call', label: 'test' },
  });

function blobAt(gitDir: string, tree: string, path: string): string {
  const run = spawnSync('git', ['cat-file', '-p', `${tree}:${path}`], {
    env: { ...process.env, GIT_DIR: gitDir },
    encoding: 'utf8',
  });
  return run.stdout;
}

const indexes = (gitDir: string) => readdirSync(gitDir).filter((name) => name.startsWith('lathe-index.'));

describe("a large workspace's stats, compared by git", () => {
  it('ask one git diff-files once the index is written, and see every change lathe saw before', async () => {
    const git = countingGit();
    const setup = await workspace(git.env);
    const snapshotter = new TreeSnapshotter(setup);
    const first = await take(snapshotter);
    expect(git.calls()).toEqual(['fast-import']);
    await snapshotter.settle();
    const [index] = indexes(setup.gitDir);
    // The 30 files, each in an entry (the header gives their number).
    expect(readFileSync(join(setup.gitDir, index)).readUInt32BE(8)).toBe(30);

    const same = await take(snapshotter);
    expect(same.reused).toBe(true);
    expect(git.calls().slice(1)).toEqual(['diff-files']);

    // Same size, same time stamp: git sees the change of time of the inode's change.
    rewriteInPlace(join(setup.dir, 'f3.txt'), 'FILE 3\n');
    const second = await take(snapshotter);
    expect(second.tree).not.toBe(first.tree);
    expect(blobAt(setup.gitDir, second.tree, 'f3.txt')).toBe('FILE 3\n');
    await snapshotter.settle();

    // A file made and another changed at once, f3.txt again (read since the index: lathe looks at it).
    rewriteInPlace(join(setup.dir, 'f5.txt'), 'FILE 5\n');
    rewriteInPlace(join(setup.dir, 'f3.txt'), 'File 3\n');
    writeFileSync(join(setup.dir, 'new.txt'), 'new\n');
    const third = await take(snapshotter);
    expect(blobAt(setup.gitDir, third.tree, 'f5.txt')).toBe('FILE 5\n');
    expect(blobAt(setup.gitDir, third.tree, 'f3.txt')).toBe('File 3\n');
    expect(blobAt(setup.gitDir, third.tree, 'new.txt')).toBe('new\n');
    expect(git.calls().filter((call) => call === 'diff-files').length).toBe(3);
    await snapshotter.close();
  });

  it("are left to lathe's own lstat when git calls files changed that are not", async () => {
    const git = countingGit();
    const setup = await workspace(git.env);
    const snapshotter = new TreeSnapshotter(setup);
    await take(snapshotter);
    await snapshotter.settle();
    const [index] = indexes(setup.gitDir);
    // An index whose every size is wrong: git calls every file changed.
    const bytes = readFileSync(join(setup.gitDir, index));
    for (let at = 12; at < bytes.length - 20; at += (62 + bytes.readUInt16BE(at + 60) + 8) & ~7)
      bytes.writeUInt32BE(bytes.readUInt32BE(at + 36) + 1, at + 36);
    createHash('sha1')
      .update(bytes.subarray(0, bytes.length - 20))
      .digest()
      .copy(bytes, bytes.length - 20);
    writeFileSync(join(setup.gitDir, index), bytes);
    const before = git.calls().length;
    expect((await take(snapshotter)).reused).toBe(true);
    expect(git.calls().slice(before)).toEqual(['diff-files']);
    await snapshotter.settle();
    // git was wrong about every file: it is not asked again, and changes are still seen.
    expect((await take(snapshotter)).reused).toBe(true);
    rewriteInPlace(join(setup.dir, 'f2.txt'), 'FILE 2\n');
    const changed = await take(snapshotter);
    expect(blobAt(setup.gitDir, changed.tree, 'f2.txt')).toBe('FILE 2\n');
    expect(git.calls().slice(before)).toEqual(['diff-files', 'fast-import']);
    await snapshotter.close();
  });

  it("are the snapshot thread's, whose index goes when the thread ends", async () => {
    const setup = await workspace();
    const thread = new SnapshotThread(setup);
    const first = await thread.snapshot({ ref: 'refs/lathe/checkpoints/a', at: Date.now(), meta: undefined });
    writeFileSync(join(setup.dir, 'f1.txt'), 'changed\n');
    const second = await thread.snapshot({
      ref: 'refs/lathe/checkpoints/b',
      at: Date.now(),
      meta: undefined,
    });
    expect(second.tree).not.toBe(first.tree);
    // Written after the answer, by the thread, once no snapshot waits.
    await eventually(() => indexes(setup.gitDir).length === 1);
    await thread.close();
    expect(indexes(setup.gitDir)).toEqual([]);
  });
});
