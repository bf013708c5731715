import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathInside } from '../util/inside_folder.js';

/** The nearest folder above `file` holding a root marker; else the workspace (or the file's folder outside it). */
export function projectRoot(file: string, markers: readonly string[], workspace: string): string {
  return (
    markedRoot(file, markers, workspace) ?? (isInsideFolder(file, workspace) ? workspace : dirname(file))
  );
}

/** The nearest folder above `file` holding a root marker, looking no higher than the workspace when the file is in it. */
export function markedRoot(file: string, markers: readonly string[], workspace: string): string | undefined {
  const inside = isInsideFolder(file, workspace);
  let dir = dirname(file);
  for (;;) {
    if (markers.some((marker) => existsSync(join(dir, marker)))) return dir;
    const up = dirname(dir);
    if ((inside && dir === workspace) || up === dir) return undefined;
    dir = up;
  }
}

export function isInsideFolder(file: string, folder: string): boolean {
  return pathInside(file, folder) !== undefined;
}

/** A path as results show it: relative to the workspace when inside it. */
export function shownName(file: string, workspace: string): string {
  return pathInside(file, workspace) ?? file;
}
