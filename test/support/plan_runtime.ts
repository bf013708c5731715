import { createRuntime, type Runtime, type RuntimeOptions } from '../../src/runtime/create_runtime.js';
import { tempDir } from './runtime_fixtures.js';

const made: Runtime[] = [];

/**
 * A headless runtime in Plan mode under --yolo, over a temp workspace unless `cwd` is given: only a
 * refusal or Plan mode's ask stops a call. Disposed by `disposePlanRuntimes`.
 */
export function planRuntime(options: Partial<RuntimeOptions> = {}): Runtime {
  const rt = createRuntime({
    cwd: tempDir(),
    documentsRoot: tempDir('lathe-home-'),
    env: {},
    mode: 'plan',
    yolo: true,
    ...options,
  });
  made.push(rt);
  return rt;
}

export async function disposePlanRuntimes(): Promise<void> {
  await Promise.all(made.splice(0).map((rt) => rt.dispose()));
}
