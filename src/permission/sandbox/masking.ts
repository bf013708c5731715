import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { isInside, realPathOf } from '../paths.js';
import { patternStarts } from '../pattern_starts.js';

/** More masked files than this is refused rather than passed as thousands of mounts. */
export const MAX_MASKED_FILES = 2_000;

/**
 * The real paths of existing files that match read-deny patterns, as the permission engine
 * matches them: relative patterns inside the workspace (walked from the pattern's literal base
 * folder), absolute and `~/…` ones from their base folder, never from `/`.
 */
export async function filesToMask(patterns: readonly string[], workspace: string): Promise<string[]> {
  if (patterns.length === 0) return [];
  const root = realPathOf(workspace);
  const found = new Set<string>();
  const add = (real: string | undefined) => {
    if (real) found.add(real);
    if (found.size > MAX_MASKED_FILES)
      throw new Error(
        `more than ${MAX_MASKED_FILES} files match the read-deny rules; narrow the rules so the sandbox can mask them`,
      );
  };
  const starts = patternStarts(patterns, root);
  for (const file of starts.files) add(await realFile(file));
  const links: string[] = [];
  for (const [start, ofBase] of starts.folders) {
    await walk(start, (path, entry) => {
      const rel = isInside(path, root) ? relative(root, path) : undefined;
      if (!ofBase.some((matches) => matches(path, rel))) return;
      if (entry.isSymbolicLink()) links.push(path);
      else add(path);
    });
  }
  for (const link of links) add(await realFile(link));
  return [...found];
}

async function realFile(path: string): Promise<string | undefined> {
  try {
    const real = await realpath(path);
    return (await stat(real)).isFile() ? real : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Visits every file and link under `dir` (links not followed, `.git` folders skipped); sibling
 * folders are read in parallel, so the walk does not hold up the event loop.
 */
async function walk(dir: string, visit: (path: string, entry: Dirent) => void): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  const folders: Promise<void>[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== '.git') folders.push(walk(path, visit));
    } else if (entry.isFile() || entry.isSymbolicLink()) {
      visit(path, entry);
    }
  }
  await Promise.all(folders);
}
