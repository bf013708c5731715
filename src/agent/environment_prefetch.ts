import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { environmentDetails } from './environment.js';

/**
 * The environment of a folder, read before the rest of lathe has loaded: git is started while
 * the process is still small, so starting it costs little, and it runs while the modules load.
 * Taken once, by the run in that folder; a run elsewhere reads its own.
 */
const early = new Map<string, Promise<string>>();

/** Starts reading the environment of `cwd` (as `--cwd` names it, or the current folder). */
export function prefetchEnvironment(cwd: string): void {
  let folder: string;
  try {
    folder = realpathSync(resolve(cwd));
  } catch {
    return; // a folder that is not there: the run says so itself
  }
  const read = environmentDetails(folder);
  read.catch(() => undefined); // awaited by the run that takes it
  early.set(folder, read);
}

/** The environment of the workspace: the one read early when it was this folder's, else read now. */
export function environmentFor(workspace: string): Promise<string> {
  const read = early.get(workspace);
  early.delete(workspace);
  return read ?? environmentDetails(workspace);
}
