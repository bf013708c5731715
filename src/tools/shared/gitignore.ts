import { dirname, join, relative } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { readRegularFile } from '../../edit/regular_file.js';
import { isInside } from '../../permission/paths.js';

/**
 * A filter for the entries of one folder: the .gitignore files from the workspace root down to
 * it (or only the folder's own, outside the workspace), each applied relative to where it lies.
 */
export async function gitignoreFilter(
  dir: string,
  workspace: string,
): Promise<(name: string, isDir: boolean) => boolean> {
  const folders: string[] = [];
  if (isInside(dir, workspace)) {
    for (let current = dir; ; current = dirname(current)) {
      folders.unshift(current);
      if (current === workspace || dirname(current) === current) break;
    }
  } else {
    folders.push(dir);
  }
  const layers: Array<{ base: string; rules: Ignore }> = [];
  for (const folder of folders) {
    try {
      const text = (await readRegularFile(join(folder, '.gitignore'))).toString('utf8');
      layers.push({ base: folder, rules: ignore().add(text) });
    } catch {
      // no .gitignore here (or not a regular file)
    }
  }
  return (name, isDir) => {
    if (name === '.git') return false;
    const full = join(dir, name);
    return !layers.some(({ base, rules }) => {
      const rel = relative(base, full);
      return rel !== '' && rules.ignores(isDir ? `${rel}/` : rel);
    });
  };
}
