import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A Node built-in loaded at its first use rather than with the module that names it: each one
 * loaded at start (HTTP servers, worker threads, zlib) costs lathe's start-up a few ms.
 */
export function lazyBuiltin<T>(name: `node:${string}`): T {
  return require(name) as T;
}
