import { existsSync, readdirSync, symlinkSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { tempDir } from './runtime_fixtures.js';

/**
 * A PATH with every program of the current one but bubblewrap: a folder of links to them all,
 * so a lathe started with it finds bash, git and node, and its sandbox probe finds no `bwrap`,
 * as on a machine without bubblewrap.
 */
export function pathWithoutBubblewrap(): string {
  return pathWithout(['bwrap']);
}

/** A PATH with every program of the current one but `hidden`, as on a machine without them. */
export function pathWithout(hidden: string[]): string {
  const dir = tempDir('lathe-path-without-');
  const linked = new Set(hidden);
  for (const folder of (process.env.PATH ?? '').split(delimiter)) {
    if (!folder || !existsSync(folder)) continue;
    for (const name of readdirSync(folder)) {
      if (linked.has(name)) continue;
      linked.add(name);
      symlinkSync(join(folder, name), join(dir, name));
    }
  }
  return dir;
}
