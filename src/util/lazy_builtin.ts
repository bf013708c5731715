import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The built-ins lathe loads at their first use, by name. */
interface LazyBuiltins {
  'node:http': typeof import('node:http');
  'node:readline': typeof import('node:readline');
  'node:worker_threads': typeof import('node:worker_threads');
  'node:zlib': typeof import('node:zlib');
}

/**
 * A Node built-in loaded at its first use rather than with the module that names it: each one
 * loaded at start (HTTP servers, worker threads, zlib) costs lathe's start-up a few ms.
 */
export function lazyBuiltin<N extends keyof LazyBuiltins>(name: N): LazyBuiltins[N] {
  return require(name) as LazyBuiltins[N];
}
