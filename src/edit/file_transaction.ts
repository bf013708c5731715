import * as fs from 'node:fs/promises';
import * as nodePath from 'node:path';
import { checkUnchanged, type ExpectedContent, resolveWriteTarget } from './atomic_write.js';
import { type FileContent, type FolderCheck, OpenFolder, siblingName } from './open_folder.js';

export interface FileChange {
  path: string;
  /** New content, or null to delete the file. */
  bytes: FileContent | null;
  /** What the file must still hold at commit time (see atomicWriteFile). */
  expect?: ExpectedContent;
  /** How the file is named in messages (default: the path). */
  shown?: string;
  /** Checked against the real location of the file's folder, on opening and before the commit. */
  checkFolder?: FolderCheck;
}

interface Staged {
  folder: OpenFolder;
  name: string;
  shown: string;
  expect: ExpectedContent;
  check: FolderCheck | undefined;
  temp: string | null;
  backup: string | null;
  committed: boolean;
}

/**
 * Applies changes to several files as one unit: every folder is opened once (see OpenFolder) and
 * every new content written and flushed to a temp file there; then, holding every file's lock,
 * each file is checked to hold what the change was computed from, each original is kept aside as
 * a hard link, the temps are renamed into place and deletions made; if any step fails, what was
 * done is undone from the kept originals. So a failure leaves every file as it was, and a crash
 * leaves each file wholly old or wholly new.
 */
export async function commitFileChanges(changes: readonly FileChange[]): Promise<void> {
  const folders = new Map<string, OpenFolder>();
  const staged: Staged[] = [];
  const releases: Array<() => void> = [];
  try {
    for (const change of changes) {
      const target = await resolveWriteTarget(change.path);
      const folderPath = nodePath.dirname(target);
      let folder = folders.get(folderPath);
      if (folder === undefined) {
        folder = await OpenFolder.open(folderPath);
        folders.set(folderPath, folder);
        await folder.sweepStaleTemps();
      }
      const name = nodePath.basename(target);
      const entry: Staged = {
        folder,
        name,
        shown: change.shown ?? change.path,
        expect: change.expect,
        check: change.checkFolder,
        temp: null,
        backup: null,
        committed: false,
      };
      staged.push(entry);
      await folder.verify(entry.check);
      if (change.bytes !== null)
        entry.temp = await folder.writeTemp(name, change.bytes, await folder.modeOf(name));
    }
    // One order for every writer, so two transactions never wait on each other's locks.
    const byPath = new Map(staged.map((s) => [nodePath.join(s.folder.path, s.name), s]));
    for (const key of [...byPath.keys()].sort(compare)) {
      const s = byPath.get(key) as Staged;
      releases.push(await s.folder.lock(s.name, s.shown));
    }
    for (const s of staged) await s.folder.verify(s.check);
    for (const s of staged) await checkUnchanged(s.folder, s.name, s.expect, s.shown);
    for (const s of staged) {
      if (!(await exists(s.folder.entry(s.name)))) continue;
      s.backup = siblingName(s.name, 'bak');
      await fs.link(s.folder.entry(s.name), s.folder.entry(s.backup));
    }
    for (const s of staged) {
      if (s.temp) await fs.rename(s.folder.entry(s.temp), s.folder.entry(s.name));
      else await fs.unlink(s.folder.entry(s.name));
      s.committed = true;
    }
  } catch (error) {
    await rollBack(staged);
    releaseAll(releases);
    await closeAll(folders);
    throw error;
  }
  releaseAll(releases);
  await Promise.all(staged.map((s) => (s.backup ? s.folder.remove(s.backup) : undefined)));
  await Promise.all([...folders.values()].map((folder) => folder.sync()));
  await closeAll(folders);
}

async function rollBack(staged: Staged[]): Promise<void> {
  for (const s of staged) {
    const { folder } = s;
    if (s.committed) {
      if (s.backup) await fs.rename(folder.entry(s.backup), folder.entry(s.name)).catch(() => undefined);
      else await folder.remove(s.name);
    } else if (s.backup) {
      await folder.remove(s.backup);
    }
    if (s.temp) await folder.remove(s.temp);
  }
}

function releaseAll(releases: Array<() => void>): void {
  for (const release of releases.splice(0)) {
    try {
      release();
    } catch {
      // A lock left behind is taken over once its owner is gone.
    }
  }
}

async function closeAll(folders: Map<string, OpenFolder>): Promise<void> {
  await Promise.all([...folders.values()].map((folder) => folder.close()));
}

async function exists(path: string): Promise<boolean> {
  return fs.lstat(path).then(
    () => true,
    () => false,
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
