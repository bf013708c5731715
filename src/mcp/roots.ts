import { homedir } from 'node:os';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * One entry of a server's `roots` setting: the workspace, the `--add-dir` folders, or a folder
 * given by path (resolved when the settings are read).
 */
export type RootEntry = { kind: 'workspace' } | { kind: 'added' } | { kind: 'path'; path: string };

/** The folders a root entry stands for, known only once a session runs. */
export interface RootPlaces {
  workspace?: string;
  addDirs?: readonly string[];
}

export interface McpRoot {
  uri: string;
  name: string;
}

/**
 * Reads a server entry's `roots`: absent or `"none"` is no roots (a server given its own folders
 * is not told about the workspace); `"workspace"` is the workspace; a list holds `"workspace"`,
 * `"added"` (the `--add-dir` folders) and folder paths (`~/…`, absolute, or relative to the
 * workspace). Returns the entries or the problem with the value.
 */
export function parseRoots(
  value: unknown,
  workspace: string,
  expand: (text: string) => string,
): RootEntry[] | string {
  if (value === undefined || value === 'none') return [];
  const items = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(items) || !items.every((item) => typeof item === 'string'))
    return '"roots" must be "none", "workspace", or a list of "workspace", "added" and folder paths';
  return items.map((item): RootEntry => {
    if (item === 'workspace') return { kind: 'workspace' };
    if (item === 'added') return { kind: 'added' };
    const path = expand(item);
    const home = path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
    return { kind: 'path', path: isAbsolute(home) ? home : resolve(workspace, home) };
  });
}

/** The roots a server is sent, in the order its setting names them, each folder once. */
export function resolveRoots(entries: readonly RootEntry[], places: RootPlaces): McpRoot[] {
  const roots: McpRoot[] = [];
  const add = (path: string, name: string) => {
    const uri = pathToFileURL(path).href;
    if (!roots.some((r) => r.uri === uri)) roots.push({ uri, name });
  };
  for (const entry of entries) {
    if (entry.kind === 'workspace' && places.workspace) add(places.workspace, 'workspace');
    else if (entry.kind === 'added') for (const dir of places.addDirs ?? []) add(dir, basename(dir) || dir);
    else if (entry.kind === 'path') add(entry.path, basename(entry.path) || entry.path);
  }
  return roots;
}
