import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileCacheFolder } from '../../src/cli/compile_cache.js';

describe('the folder of the compiled-code cache', () => {
  it("is in the user's cache folder: XDG_CACHE_HOME when it is an absolute path, else ~/.cache", () => {
    expect(compileCacheFolder({ XDG_CACHE_HOME: '/var/cache/me' })).toBe('/var/cache/me/lathe/compile');
    expect(compileCacheFolder({ XDG_CACHE_HOME: 'relative' })).toBe(join(homedir(), '.cache/lathe/compile'));
    expect(compileCacheFolder({})).toBe(join(homedir(), '.cache/lathe/compile'));
  });
});
