import { isAbsolute, relative, sep } from 'node:path';

/**
 * Whether a path relative to a folder (as `path.relative` gives it) leads out of that folder:
 * its first segment is `..`, or it is absolute (another drive). Names that only start with two
 * dots (`..notes`, `...`) lie inside.
 */
export function leavesFolder(rel: string): boolean {
  return rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel);
}

/** Whether `child` is `parent` or lies inside it (both absolute). */
export function isInside(child: string, parent: string): boolean {
  return !leavesFolder(relative(parent, child));
}

/** `path` relative to `folder` when it lies strictly inside it, else undefined. */
export function pathInside(path: string, folder: string): string | undefined {
  const rel = relative(folder, path);
  return rel === '' || leavesFolder(rel) ? undefined : rel;
}
