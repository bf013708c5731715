import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { isSameOrBelow, realFolder } from '../trust.js';
import { ExpandError } from './prompt_command.js';

/** A file larger than this is not put into a prompt. */
const MAX_FILE_BYTES = 256 * 1024;

/**
 * The text of the file an `@{path}` names, relative to the workspace. A path that leads outside
 * the workspace (`..`, an absolute path, a link pointing out), a folder, a large or unreadable
 * file is refused with a line saying which and why.
 */
export function readReferencedFile(path: string, workspace: string): string {
  const wanted = path.trim();
  if (wanted === '') throw new ExpandError('@{} names no file');
  const absolute = isAbsolute(wanted) ? wanted : join(workspace, wanted);
  const real = realFolder(absolute);
  const root = realFolder(workspace);
  if (!isSameOrBelow(real, root))
    throw new ExpandError(`@{${wanted}} is outside the workspace: only files inside it can be included`);
  let size: number;
  try {
    const stat = statSync(real);
    if (stat.isDirectory()) throw new ExpandError(`@{${wanted}} is a folder: name a file`);
    size = stat.size;
  } catch (error) {
    if (error instanceof ExpandError) throw error;
    throw new ExpandError(
      `@{${wanted}} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  if (size > MAX_FILE_BYTES)
    throw new ExpandError(`@{${wanted}} is larger than ${MAX_FILE_BYTES / 1024} KB: name a smaller file`);
  try {
    return readFileSync(real, 'utf8');
  } catch (error) {
    throw new ExpandError(
      `@{${relative(root, real) || wanted}} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
}
