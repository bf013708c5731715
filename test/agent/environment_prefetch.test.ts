import { execFileSync } from 'node:child_process';
import { realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { environmentFor, prefetchEnvironment } from '../../src/agent/environment_prefetch.js';
import { tempDir } from '../support/runtime_fixtures.js';

// The environment is read before lathe has loaded only to save time: whatever was read early,
// each run must get its own folder's environment.

function repo(): string {
  const dir = realpathSync(tempDir('lathe-env-'));
  execFileSync('git', ['init', '-q', '-b', 'main', dir]);
  return dir;
}

describe('the environment read before lathe has loaded', () => {
  it('is the environment of the run’s folder, git status included, and can be read again', async () => {
    const dir = repo();
    prefetchEnvironment(dir);
    const first = await environmentFor(dir);
    expect(first).toContain(`Working folder: ${dir}`);
    expect(first).toMatch(/Git: branch .*main, clean/);
    expect(await environmentFor(dir)).toBe(first);
  });

  it('is never another folder’s, and a folder that is not there is left to the run', async () => {
    const first = repo();
    const second = repo();
    prefetchEnvironment(first);
    prefetchEnvironment(join(first, 'missing'));
    expect(await environmentFor(second)).toContain(`Working folder: ${second}`);
    expect(await environmentFor(first)).toContain(`Working folder: ${first}`);
  });

  it('names the real path the runtime works in when --cwd is a symlink', async () => {
    const dir = repo();
    const link = join(tempDir('lathe-link-'), 'repo');
    symlinkSync(dir, link);
    prefetchEnvironment(link);
    expect(await environmentFor(dir)).toContain(`Working folder: ${dir}`);
  });
});
