import { constants, type Stats } from 'node:fs';
import * as fs from 'node:fs/promises';

/**
 * The one gate every tool that reads or edits a file goes through: only regular files are
 * opened. A FIFO would block the read forever (and ignore Ctrl-C), a device such as /dev/zero
 * never ends, a socket cannot be read at all. The file is opened with O_NONBLOCK, so a FIFO
 * swapped in after any earlier check cannot block the open, and its type is checked on the open
 * handle (fstat), so what is read is exactly what was checked.
 */

/** A path that exists but is not a regular file (or folder): FIFO, socket or device. */
export class NotRegularFileError extends Error {
  readonly code = 'ENOTREG';
  constructor(
    readonly path: string,
    readonly kind: string,
  ) {
    super(`${path} is ${kind}, not a regular file; only regular files are read or edited.`);
  }
}

/** What a non-regular file is, in words ("a FIFO (named pipe)"), or undefined for files and folders. */
export function specialFileKind(stats: Stats): string | undefined {
  if (stats.isFile() || stats.isDirectory()) return undefined;
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

/**
 * Why `path` may not be opened as a file (a message naming it as `shown`), or undefined when it
 * is a regular file or does not exist. Follows symlinks, as opening does; never blocks.
 */
export async function specialFileProblem(path: string, shown = path): Promise<string | undefined> {
  const stats = await fs.stat(path).catch(() => undefined);
  const kind = stats && specialFileKind(stats);
  return kind === undefined ? undefined : new NotRegularFileError(shown, kind).message;
}

// O_NONBLOCK keeps a FIFO without a writer from blocking the open itself; it does nothing to
// regular files. Not on Windows, which has neither the flag nor FIFOs on disk.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * Opens `path` for reading if, and only if, it is a regular file. Throws ENOENT and EISDIR as
 * fs does, and NotRegularFileError (code ENOTREG) for FIFOs, sockets and devices.
 */
export async function openRegularFile(path: string, shown = path): Promise<fs.FileHandle> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(path, OPEN_FLAGS);
  } catch (error) {
    // A socket cannot be opened at all (ENXIO); name it as what it is.
    if ((error as NodeJS.ErrnoException).code === 'ENXIO') {
      const problem = await specialFileProblem(path, shown);
      if (problem) throw new NotRegularFileError(shown, 'a socket');
    }
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (stats.isDirectory()) {
      throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read '${path}'`), {
        code: 'EISDIR',
      });
    }
    const kind = specialFileKind(stats);
    if (kind !== undefined) throw new NotRegularFileError(shown, kind);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** The whole content of a regular file (see `openRegularFile` for what is refused). */
export async function readRegularFile(path: string, shown = path): Promise<Buffer> {
  const handle = await openRegularFile(path, shown);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}
