import { spawnSync } from 'node:child_process';
import { createRuntime, type Runtime } from '../../src/runtime/create_runtime.js';
import { tempDir } from '../support/runtime_fixtures.js';

/** A runtime over a temp workspace and documents-root, with these features on; disposed by `disposeAll`. */
export function runtimeWith(features: string[], options: Parameters<typeof createRuntime>[0] = {}): Runtime {
  const rt = createRuntime({
    cwd: tempDir(),
    documentsRoot: tempDir('lathe-home-'),
    env: {},
    approve: ['executeAll'],
    features,
    ...options,
  });
  made.push(rt);
  return rt;
}

const made: Runtime[] = [];

export async function disposeAll(): Promise<void> {
  await Promise.all(made.splice(0).map((rt) => rt.dispose()));
}

/** Processes whose command line holds `marker` (not counting pgrep itself). */
export function processesWith(marker: string): string[] {
  const r = spawnSync('pgrep', ['-f', marker], { encoding: 'utf8' });
  return r.stdout.split('\n').filter(Boolean);
}

/** Polls until `check` returns a value that is not undefined/false, or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => T | Promise<T>,
  timeoutMs = 15_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false && value !== null) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A marker unique to this test run, to find its processes with pgrep. */
export function uniqueMarker(label: string): string {
  return `lathe-${label}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
}
