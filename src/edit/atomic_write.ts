import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as nodePath from 'node:path';

/**
 * Replaces a file so that a crash at any moment leaves either the whole old content or the
 * whole new content at `path`, never a mix: write a temp file in the same folder, flush it to
 * disk, rename it over the target (atomic within one file system), then flush the folder so the
 * rename itself survives a power cut.
 *
 * Keeps the existing file's permission bits (or uses `opts.mode`), creates missing parent
 * folders, and writes through a symlink to its target rather than replacing the link. On any
 * error the temp file is removed and the error rethrown; the target is untouched.
 */
export async function atomicWriteFile(
  path: string,
  data: Uint8Array | string,
  opts: { mode?: number } = {},
): Promise<void> {
  const target = await resolveWriteTarget(path);
  const tempPath = await writeTempFile(target, data, opts);
  try {
    await fs.rename(tempPath, target);
  } catch (error) {
    await fs.rm(tempPath, { force: true }).catch(() => undefined);
    throw error;
  }
  await syncFolder(nodePath.dirname(target));
}

/** The path a write should replace: a symlink's target (so the link survives), made absolute. */
export async function resolveWriteTarget(path: string): Promise<string> {
  try {
    return await fs.realpath(path);
  } catch {
    return nodePath.resolve(path);
  }
}

/**
 * Writes `data` to a new temp file beside `target` (`.name.lathe-tmp-XXXXXXXX`), with the
 * target's current mode bits (or `opts.mode`), flushed to disk; returns the temp path. Creates
 * missing parent folders. On error the temp file is removed and the error rethrown.
 */
export async function writeTempFile(
  target: string,
  data: Uint8Array | string,
  opts: { mode?: number } = {},
): Promise<string> {
  const folder = nodePath.dirname(target);
  await fs.mkdir(folder, { recursive: true });
  const mode = opts.mode ?? (await existingMode(target));
  const tempPath = nodePath.join(
    folder,
    `.${nodePath.basename(target)}.lathe-tmp-${randomBytes(4).toString('hex')}`,
  );
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(tempPath, 'wx', mode ?? 0o666);
    await handle.writeFile(data);
    // The umask applied at creation; an explicit chmod restores the exact bits asked for.
    if (mode !== undefined) await handle.chmod(mode);
    await handle.sync();
    await handle.close();
    return tempPath;
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await fs.rm(tempPath, { force: true }).catch(() => undefined);
    throw error;
  }
}

/** Flushes a folder's entries (renames, deletions). Skipped where the platform cannot do it. */
export async function syncFolder(folder: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(folder, 'r');
    await handle.sync();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'EISDIR' && code !== 'EPERM' && code !== 'ENOTSUP') throw error;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

async function existingMode(path: string): Promise<number | undefined> {
  try {
    return (await fs.stat(path)).mode & 0o7777;
  } catch {
    return undefined;
  }
}
