import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { isProcessAlive, processIdentity } from '../../src/util/process_identity.js';
import { createWorktree } from '../../src/worktree/index.js';
import { lockPathIn, repositoryFolder } from '../../src/worktree/places.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { repository } from './repos.js';

/** Writes the repository's worktree lock as if `owner` held it. */
function holdLock(home: string, repo: string, owner: object): string {
  const folder = repositoryFolder(home, join(repo, '.git'));
  mkdirSync(folder, { recursive: true });
  const path = lockPathIn(folder);
  writeFileSync(path, JSON.stringify(owner));
  return path;
}

describe('the lock that serialises worktree creation', () => {
  it('is taken over from a process that died holding it', async () => {
    const repo = repository();
    const home = tempDir('lathe-home-');
    const child = spawn('true');
    const dead = await new Promise<ReturnType<typeof processIdentity>>((resolve) =>
      child.on('spawn', () => {
        const identity = processIdentity(child.pid);
        child.on('exit', () => resolve(identity));
      }),
    );
    expect(isProcessAlive(dead)).toBe(false);
    const lock = holdLock(home, repo, dead);
    const worktree = await createWorktree({ repo, name: 'after-death', documentsRoot: home });
    expect(existsSync(worktree.dir)).toBe(true);
    expect(existsSync(lock)).toBe(false);
  });

  it('does not take a reused pid for its owner: the start time must match too', async () => {
    const repo = repository();
    const home = tempDir('lathe-home-');
    const reused = { pid: process.pid, startTime: (processIdentity().startTime ?? 0) + 1 };
    expect(isProcessAlive(reused)).toBe(false);
    holdLock(home, repo, reused);
    const worktree = await createWorktree({ repo, name: 'reused', documentsRoot: home });
    expect(existsSync(worktree.dir)).toBe(true);
  });

  it('held by another live process, keeps creation waiting until that process ends', async () => {
    const repo = repository();
    const home = tempDir('lathe-home-');
    const holder = spawn('sleep', ['60']);
    await new Promise((resolve) => holder.on('spawn', resolve));
    holdLock(home, repo, processIdentity(holder.pid));
    let settled = false;
    const creation = createWorktree({ repo, name: 'waited', documentsRoot: home }).finally(() => {
      settled = true;
    });
    await sleep(500);
    expect(settled).toBe(false);
    expect(existsSync(join(repositoryFolder(home, join(repo, '.git')), 'waited'))).toBe(false);
    holder.kill('SIGKILL');
    const worktree = await creation;
    expect(existsSync(worktree.dir)).toBe(true);
  });
});
