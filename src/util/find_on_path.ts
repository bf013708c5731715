import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The first of these programs on PATH, as lathe and the commands it runs would find it. */
export function findOnPath(
  names: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const dirs = (env.PATH ?? '').split(delimiter).filter(Boolean);
  for (const name of names) {
    for (const dir of dirs) {
      const candidate = join(dir, name);
      try {
        // Most folders do not hold the program: no exception for those (each costs at start-up).
        if (!statSync(candidate, { throwIfNoEntry: false })?.isFile()) continue;
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not here, or not ours to run
      }
    }
  }
  return undefined;
}
