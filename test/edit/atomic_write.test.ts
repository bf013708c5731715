import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { atomicWriteFile, resolveWriteTarget } from '../../src/edit/atomic_write.js';
import { OpenFolder } from '../../src/edit/open_folder.js';

const posix = process.platform !== 'win32';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lathe-atomic-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const leftovers = async (folder: string) =>
  (await fs.readdir(folder)).filter((name) => name.includes('.lathe-tmp-'));

describe('atomicWriteFile', () => {
  it('creates missing parent folders and leaves no temp file', async () => {
    const target = path.join(dir, 'a', 'b', 'file.txt');
    await atomicWriteFile(target, 'héllo\n');
    expect(await fs.readFile(target, 'utf8')).toBe('héllo\n');
    expect(await leftovers(path.dirname(target))).toEqual([]);
  });

  it('replaces bytes exactly', async () => {
    const target = path.join(dir, 'data.bin');
    await fs.writeFile(target, 'old content that is longer');
    const bytes = new Uint8Array([0, 1, 2, 255]);
    await atomicWriteFile(target, bytes);
    expect(new Uint8Array(await fs.readFile(target))).toEqual(bytes);
  });

  it.runIf(posix)('keeps the existing mode bits, or applies opts.mode', async () => {
    const target = path.join(dir, 'script.sh');
    await fs.writeFile(target, 'old');
    await fs.chmod(target, 0o751);
    await atomicWriteFile(target, 'new');
    expect((await fs.stat(target)).mode & 0o7777).toBe(0o751);
    await atomicWriteFile(target, 'newer', { mode: 0o600 });
    expect((await fs.stat(target)).mode & 0o7777).toBe(0o600);
  });

  it.runIf(posix)('writes through a symlink, keeping the link', async () => {
    const real = path.join(dir, 'real.txt');
    const link = path.join(dir, 'link.txt');
    await fs.writeFile(real, 'old');
    await fs.symlink(real, link);
    await atomicWriteFile(link, 'new');
    expect((await fs.lstat(link)).isSymbolicLink()).toBe(true);
    expect(await fs.readFile(real, 'utf8')).toBe('new');
  });

  it('exposes its steps: a flushed temp file beside the target, a resolved target, a folder sync', async () => {
    const target = path.join(dir, 'sub', 'name.txt');
    const folder = await OpenFolder.open(path.dirname(target));
    const temp = await folder.writeTemp('name.txt', 'staged', undefined);
    expect(temp).toMatch(new RegExp(`^\\.name\\.txt\\.lathe-tmp-${process.pid}-[0-9a-f]{8}$`));
    expect(await fs.readFile(path.join(dir, 'sub', temp), 'utf8')).toBe('staged');
    expect(await folder.realPath()).toBe(await fs.realpath(path.join(dir, 'sub')));
    expect(await resolveWriteTarget(path.relative(process.cwd(), target))).toBe(target);
    await expect(folder.sync()).resolves.toBeUndefined();
    await folder.close();
  });

  it('removes the temp file and rethrows when the rename fails', async () => {
    const target = path.join(dir, 'folder');
    await fs.mkdir(target);
    await fs.writeFile(path.join(target, 'inside.txt'), 'kept');
    await expect(atomicWriteFile(target, 'x')).rejects.toThrow();
    expect(await leftovers(dir)).toEqual([]);
    expect(await fs.readFile(path.join(target, 'inside.txt'), 'utf8')).toBe('kept');
  });

  it('takes over a lock left by a writer that is gone, in either form a lock holds its owner', async () => {
    const gone = spawnSync('true').pid as number;
    const target = path.join(dir, 'locked.txt');
    for (const owner of [String(gone), JSON.stringify({ pid: gone })]) {
      await fs.writeFile(path.join(dir, '.locked.txt.lathe-lock'), owner);
      await atomicWriteFile(target, owner);
      expect(await fs.readFile(target, 'utf8')).toBe(owner);
      expect((await fs.readdir(dir)).sort()).toEqual(['locked.txt']);
    }
  });
});
