import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as nodePath from 'node:path';
import { resolveWriteTarget, syncFolder, writeTempFile } from './atomic_write.js';

export interface FileChange {
  path: string;
  /** New bytes, or null to delete the file. */
  bytes: Uint8Array | null;
}

interface Staged {
  target: string;
  temp: string | null;
  backup: string | null;
  committed: boolean;
}

const siblingName = (target: string, tag: string) =>
  nodePath.join(
    nodePath.dirname(target),
    `.${nodePath.basename(target)}.lathe-${tag}-${randomBytes(4).toString('hex')}`,
  );

async function exists(path: string): Promise<boolean> {
  return fs.lstat(path).then(
    () => true,
    () => false,
  );
}

/**
 * Applies changes to several files as one unit: every new content is written and flushed to a
 * temp file first; then each original is kept aside as a hard link, the temps are renamed into
 * place and deletions made; if any step fails, what was done is undone from the kept originals.
 * So a failure leaves every file as it was, and a crash leaves each file wholly old or wholly new.
 */
export async function commitFileChanges(changes: readonly FileChange[]): Promise<void> {
  const staged: Staged[] = [];
  try {
    for (const change of changes) {
      const target = await resolveWriteTarget(change.path);
      const temp = change.bytes === null ? null : await writeTempFile(target, change.bytes);
      staged.push({ target, temp, backup: null, committed: false });
    }
    for (const s of staged) {
      if (!(await exists(s.target))) continue;
      s.backup = siblingName(s.target, 'bak');
      await fs.link(s.target, s.backup);
    }
    for (const s of staged) {
      if (s.temp) await fs.rename(s.temp, s.target);
      else await fs.unlink(s.target);
      s.committed = true;
    }
  } catch (error) {
    await rollBack(staged);
    throw error;
  }
  await Promise.all(staged.map((s) => (s.backup ? fs.rm(s.backup, { force: true }) : undefined)));
  await Promise.all([...new Set(staged.map((s) => nodePath.dirname(s.target)))].map(syncFolder));
}

async function rollBack(staged: Staged[]): Promise<void> {
  for (const s of staged) {
    if (s.committed) {
      if (s.backup) await fs.rename(s.backup, s.target).catch(() => undefined);
      else await fs.rm(s.target, { force: true }).catch(() => undefined);
    } else if (s.backup) {
      await fs.rm(s.backup, { force: true }).catch(() => undefined);
    }
    if (s.temp) await fs.rm(s.temp, { force: true }).catch(() => undefined);
  }
}
