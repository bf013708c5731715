import { randomBytes } from 'node:crypto';
import { constants, existsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as nodePath from 'node:path';
import { lockOwner, takeFileLock } from '../util/file_lock.js';
import { isProcessAlive, pidExists } from '../util/process_identity.js';

/**
 * A folder opened once, by handle, for writing into. Every later step (temp file, lock, rename,
 * backup) names its entries through the handle (`/proc/self/fd/<fd>/<name>` on Linux, which
 * resolves like openat), so swapping the folder, or any folder above it, for a symlink after the
 * folder was opened and checked cannot redirect the write elsewhere.
 *
 * Where /proc is missing (macOS) entries are named by path and the check is repeated before each
 * rename: the window narrows but does not close.
 */

/** New content: bytes, text, or a function that writes it into the open temp file (large content). */
export type FileContent = Uint8Array | string | ((handle: fs.FileHandle) => Promise<void>);

/** Says why a write may not go into this folder (its real path), or nothing when it may. */
export type FolderCheck = (realFolder: string) => string | undefined;

/** A write refused on purpose (folder moved, file changed since read): the message is for the model. */
export class WriteRefusedError extends Error {
  readonly code = 'EWRITEREFUSED';
}

const PROC_FD = '/proc/self/fd';
// O_NOFOLLOW: a symlink in the folder's own place is refused rather than followed.
const FOLDER_FLAGS = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0);
const HAS_PROC_FD = process.platform === 'linux' && existsSync(PROC_FD);

/** Temp files are named `.<name>.lathe-tmp-<pid>-<hex>`, so a dead writer's leftovers can be found. */
const TEMP_NAME = /\.lathe-tmp-(\d+)-[0-9a-f]{8}$/;
/** Lock files are `.<name>.lathe-lock`, holding their owner (see util/file_lock.ts). */
const LOCK_SUFFIX = '.lathe-lock';
/** A lock is held only between checking a file's content and renaming over it: waits are short. */
const LOCK_WAIT_LIMIT_MS = 10_000;
/** A temp file younger than this is left alone even if its pid looks dead (pid namespaces). */
const STALE_AFTER_MS = 60_000;
const MAX_NAME_PART = 100;

export class OpenFolder {
  private constructor(
    /** The path the folder was opened by. */
    readonly path: string,
    private readonly handle: fs.FileHandle,
    private readonly check: FolderCheck | undefined,
  ) {}

  /**
   * Opens the folder at `path` (refusing a symlink as its last component) and checks where it
   * really is. Missing folders are created one by one, each inside the folder opened and checked
   * above it, so a swapped symlink cannot make even an empty folder appear elsewhere. Close it
   * when done.
   */
  static async open(path: string, check?: FolderCheck): Promise<OpenFolder> {
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(path, FOLDER_FLAGS);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && nodePath.dirname(path) !== path) {
        handle = await OpenFolder.createIn(nodePath.dirname(path), nodePath.basename(path), check);
      } else if (code === 'ENOTDIR' || code === 'ELOOP') {
        throw new WriteRefusedError(
          `${path} is not a folder (a symlink or file is in its place); nothing was written.`,
        );
      } else {
        throw error;
      }
    }
    const folder = new OpenFolder(path, handle, check);
    try {
      await folder.verify();
    } catch (error) {
      await handle.close();
      throw error;
    }
    return folder;
  }

  /** Makes (if needed) and opens folder `name` inside the folder at `parentPath`. */
  private static async createIn(
    parentPath: string,
    name: string,
    check?: FolderCheck,
  ): Promise<fs.FileHandle> {
    const parent = await OpenFolder.open(parentPath, check);
    try {
      await fs.mkdir(parent.entry(name)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
      return await fs.open(parent.entry(name), FOLDER_FLAGS);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTDIR' || code === 'ELOOP') {
        throw new WriteRefusedError(
          `${nodePath.join(parentPath, name)} is not a folder (a symlink or file is in its place); nothing was written.`,
        );
      }
      if (code === 'ENOENT') {
        throw new WriteRefusedError(
          `${parentPath} was moved or removed while writing; nothing was written. Check the path and try again.`,
        );
      }
      throw error;
    } finally {
      await parent.close();
    }
  }

  /** The path of an entry of this folder, resolved through the open handle. */
  entry(name: string): string {
    return HAS_PROC_FD ? `${PROC_FD}/${this.handle.fd}/${name}` : nodePath.join(this.path, name);
  }

  /** Where the opened folder is now (it may have been moved since it was opened). */
  async realPath(): Promise<string> {
    return HAS_PROC_FD ? fs.readlink(`${PROC_FD}/${this.handle.fd}`) : fs.realpath(this.path);
  }

  /** Runs the folder check against where the folder really is now; throws WriteRefusedError. */
  async verify(check = this.check): Promise<void> {
    if (check === undefined) return;
    const problem = check(await this.realPath());
    if (problem !== undefined) throw new WriteRefusedError(problem);
  }

  /**
   * Writes `data` to a new temp file in this folder, with `mode` bits exactly when given,
   * flushed to disk; returns its name. On error the temp file is removed and the error rethrown.
   */
  async writeTemp(forName: string, data: FileContent, mode: number | undefined): Promise<string> {
    const name = siblingName(forName, 'tmp');
    let handle: fs.FileHandle | undefined;
    try {
      handle = await fs.open(this.entry(name), 'wx', mode ?? 0o666);
      if (typeof data === 'function') await data(handle);
      else await handle.writeFile(data);
      // The umask applied at creation; an explicit chmod restores the exact bits asked for.
      if (mode !== undefined) await handle.chmod(mode);
      await handle.sync();
      await handle.close();
      return name;
    } catch (error) {
      await handle?.close().catch(() => undefined);
      await this.remove(name);
      // The opened folder was removed under us: nothing was written, and the path may now lead elsewhere.
      if (handle === undefined && (error as NodeJS.ErrnoException).code === 'ENOENT')
        throw new WriteRefusedError(
          `the folder of ${forName} was moved or removed while writing; nothing was written. Check the path and try again.`,
        );
      throw error;
    }
  }

  /** Mode bits of an existing entry (following a symlink), or undefined. */
  async modeOf(name: string): Promise<number | undefined> {
    return fs.stat(this.entry(name)).then(
      (s) => s.mode & 0o7777,
      () => undefined,
    );
  }

  async remove(name: string): Promise<void> {
    await fs.rm(this.entry(name), { force: true }).catch(() => undefined);
  }

  /**
   * Removes temp and lock files left by writers that were killed: their process is gone and the
   * file is over a minute old. Cheap (one listing of a folder being written anyway); never throws.
   */
  async sweepStaleTemps(): Promise<void> {
    const names = await fs.readdir(this.entry('.')).catch(() => [] as string[]);
    for (const name of names) {
      if (!this.leftByDeadWriter(name)) continue;
      const stats = await fs.lstat(this.entry(name)).catch(() => undefined);
      if (stats?.isFile() && Date.now() - stats.mtimeMs > STALE_AFTER_MS) await this.remove(name);
    }
  }

  /** Whether `name` is a temp file or a lock file whose writer is gone. */
  private leftByDeadWriter(name: string): boolean {
    const pid = TEMP_NAME.exec(name)?.[1];
    if (pid !== undefined) return !pidExists(Number(pid));
    const owner = name.endsWith(LOCK_SUFFIX) ? lockOwner(this.entry(name)) : undefined;
    return owner !== undefined && !isProcessAlive(owner);
  }

  /**
   * Takes the lock on `name` (`.<name>.lathe-lock` beside it) and resolves to the function that
   * leaves it. Its owner is written under a temp file's name first, so a writer killed meanwhile
   * leaves only what `sweepStaleTemps` removes.
   */
  lock(name: string, shown: string): Promise<() => void> {
    return takeFileLock(this.entry(`.${name}${LOCK_SUFFIX}`), {
      waitLimitMs: LOCK_WAIT_LIMIT_MS,
      tempPath: this.entry(siblingName(name, 'tmp')),
      busy: (owner) =>
        new WriteRefusedError(
          `${shown} is being written by another process (pid ${owner ?? 'unknown'}) and stayed locked; nothing was written. Try again.`,
        ),
    });
  }

  /** Flushes the folder's entries (renames, deletions). Skipped where the platform cannot. */
  async sync(): Promise<void> {
    await this.handle.sync().catch((error: NodeJS.ErrnoException) => {
      if (!['EINVAL', 'EISDIR', 'EPERM', 'ENOTSUP', 'EBADF'].includes(error.code ?? '')) throw error;
    });
  }

  async close(): Promise<void> {
    await this.handle.close().catch(() => undefined);
  }
}

/** `.<name>.lathe-<tag>-<pid>-<hex>`, the name cut short enough to stay a valid file name. */
export function siblingName(name: string, tag: string): string {
  return `.${name.slice(0, MAX_NAME_PART)}.lathe-${tag}-${process.pid}-${randomBytes(4).toString('hex')}`;
}
