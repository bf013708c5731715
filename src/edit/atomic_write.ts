import * as fs from 'node:fs/promises';
import * as nodePath from 'node:path';
import { noteOwnWrite } from '../util/own_writes.js';
import { hashRegularFile } from './content_hash.js';
import { type FolderCheck, OpenFolder, WriteRefusedError } from './open_folder.js';

export { type FolderCheck, WriteRefusedError } from './open_folder.js';

/**
 * What the file must still hold when the new content replaces it: the sha256 of the bytes the
 * edit was computed from, or null when it did not exist. Undefined: no check.
 */
export type ExpectedContent = string | null | undefined;

export interface WriteOptions {
  /** Mode bits of the new file (default: the replaced file's, or 0666 less the umask). */
  mode?: number;
  /** Checked against the folder's real location once it is open, and again before the rename. */
  checkFolder?: FolderCheck;
  /** Refuses the write ("changed since read") when the file no longer holds this content. */
  expect?: ExpectedContent;
  /** How the file is named in messages (default: the path). */
  shown?: string;
}

/**
 * Replaces a file so that a crash at any moment leaves either the whole old content or the
 * whole new content at `path`, never a mix: open the folder once, write a temp file in it
 * through that handle, flush it, then, holding the file's lock, check the file still holds what
 * the edit was computed from and rename the temp over it (atomic within one file system), and
 * flush the folder so the rename itself survives a power cut.
 *
 * Keeps the existing file's permission bits (or uses `opts.mode`), creates missing parent
 * folders, and writes through a symlink to its target rather than replacing the link. On any
 * error the temp file is removed and the error rethrown (WriteRefusedError when the folder check
 * or the content check refuses); the target is untouched.
 */
export async function atomicWriteFile(
  path: string,
  data: Uint8Array | string,
  opts: WriteOptions = {},
): Promise<void> {
  const target = await resolveWriteTarget(path);
  const name = nodePath.basename(target);
  const shown = opts.shown ?? path;
  const folder = await OpenFolder.open(nodePath.dirname(target), opts.checkFolder);
  try {
    await folder.sweepStaleTemps();
    const temp = await folder.writeTemp(name, data, opts.mode ?? (await folder.modeOf(name)));
    try {
      const release = await folder.lock(name, shown);
      try {
        await folder.verify();
        await checkUnchanged(folder, name, opts.expect, shown);
        await fs.rename(folder.entry(temp), folder.entry(name));
        noteOwnWrite(target);
      } finally {
        release();
      }
    } catch (error) {
      await folder.remove(temp);
      throw error;
    }
    await folder.sync();
  } finally {
    await folder.close();
  }
}

/**
 * The path a write should replace, made absolute: a symlink's target (so the link survives), and
 * for a new file, the real path of its nearest existing folder with the missing part appended.
 */
export async function resolveWriteTarget(path: string): Promise<string> {
  const missing: string[] = [];
  for (let current = nodePath.resolve(path); ; current = nodePath.dirname(current)) {
    try {
      return nodePath.join(await fs.realpath(current), ...missing.reverse());
    } catch {
      if (nodePath.dirname(current) === current) return nodePath.resolve(path);
      missing.push(nodePath.basename(current));
    }
  }
}

/**
 * Throws WriteRefusedError when `name` in `folder` no longer holds the expected content. Call it
 * holding the file's lock, right before the rename.
 */
export async function checkUnchanged(
  folder: OpenFolder,
  name: string,
  expected: ExpectedContent,
  shown: string,
): Promise<void> {
  if (expected === undefined) return;
  let current: string | null;
  try {
    current = await hashRegularFile(folder.entry(name), shown);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') current = null;
    else if (code === 'ENOTREG' || code === 'EISDIR') current = code;
    else throw error;
  }
  if (current === expected) return;
  throw new WriteRefusedError(
    `${shown} changed since read: another process changed it while this edit was being made. ` +
      'Nothing was written. Read the file again, then redo the edit.',
  );
}
