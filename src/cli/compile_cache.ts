import module from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** `module.enableCompileCache` came with Node 22.1: Node 20 and its types have none. */
type WithCompileCache = { enableCompileCache?: (directory?: string) => unknown };

/** Where the compiled code is kept: the user's cache folder (XDG_CACHE_HOME, else ~/.cache). */
export function compileCacheFolder(env: NodeJS.ProcessEnv = process.env): string {
  const caches = env.XDG_CACHE_HOME?.startsWith('/') ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
  return join(caches, 'lathe', 'compile');
}

/**
 * On Node 22.1 and later, V8 keeps the code it compiled of lathe's modules between runs, and a
 * later start skips most of that work. The cache lives in a folder of the user's own (or where
 * NODE_COMPILE_CACHE says), not in the shared temporary folder, where another user could plant
 * code. Node 20 has no such cache: nothing happens there.
 */
export function keepCompiledCode(env: NodeJS.ProcessEnv = process.env): void {
  try {
    (module as WithCompileCache).enableCompileCache?.(compileCacheFolder(env));
  } catch {
    // A cache that cannot be kept (a read-only home) only costs the time it would have saved.
  }
}
