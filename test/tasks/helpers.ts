import { spawnSync } from 'node:child_process';
import { createRuntime, type Runtime } from '../../src/runtime/create_runtime.js';
import { LATHE_BIN } from '../support/cli.js';
import { tempDir } from '../support/runtime_fixtures.js';

/** A runtime over a temp workspace and documents-root, with these features on; disposed by `disposeAll`. */
export function runtimeWith(features: string[], options: Parameters<typeof createRuntime>[0] = {}): Runtime {
  const rt = createRuntime({
    cwd: tempDir(),
    documentsRoot: tempDir('lathe-home-'),
    env: {},
    approve: ['executeAll'],
    features,
    // Headless runs of schedules and triggers start the built command, as the CLI's runtimes do.
    latheBin: LATHE_BIN,
    ...options,
  });
  made.push(rt);
  return rt;
}

const made: Runtime[] = [];

export async function disposeAll(): Promise<void> {
  await Promise.all(made.splice(0).map((rt) => rt.dispose()));
}

export { eventually, processesCarrying, uniqueToken } from '../support/processes.js';

/** Processes whose command line holds `marker` (a marker from `uniqueMarker`). */
export function processesWith(marker: string): string[] {
  const r = spawnSync('pgrep', ['-f', marker], { encoding: 'utf8' });
  return r.stdout.split('\n').filter(Boolean);
}

/** A marker unique to this test run, for a process that carries it in its command line. */
export function uniqueMarker(label: string): string {
  return `lathe-${label}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
}
