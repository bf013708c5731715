import { dirname } from 'node:path';
import { atomicWriteFile, resolveWriteTarget, WriteRefusedError } from '../../edit/atomic_write.js';
import { decodeText } from '../../edit/codec.js';
import { sha256 } from '../../edit/content_hash.js';
import { commitFileChanges, type FileChange } from '../../edit/file_transaction.js';
import { readRegularFile } from '../../edit/regular_file.js';
import type { EditorAccess } from '../../tool/context/editor.js';
import { heldTextBytes } from '../shared/editor_text.js';

type Editor = Pick<EditorAccess, 'readTextFile' | 'writeTextFile'>;

/**
 * Where every text write of the editing tools goes. Without an editor that writes (`editor`),
 * to disk: one file by `atomicWriteFile`, several as one transaction. With one, through it (see
 * `commitThroughEditor`).
 */
export async function writeTextChange(change: FileChange, editor: Editor | undefined): Promise<void> {
  if (editor?.writeTextFile) return commitThroughEditor([change], editor);
  if (change.bytes === null || typeof change.bytes === 'function') return commitFileChanges([change]);
  await atomicWriteFile(change.path, change.bytes, {
    expect: change.expect,
    shown: change.shown,
    checkFolder: change.checkFolder,
  });
}

/** Several files changed together (all or none), through the editor when it writes. */
export async function commitTextChanges(
  changes: readonly FileChange[],
  editor: Editor | undefined,
): Promise<void> {
  if (editor?.writeTextFile) return commitThroughEditor(changes, editor);
  return commitFileChanges(changes);
}

interface EditorWrite {
  change: FileChange;
  shown: string;
  text: string;
  /** What the file held (through the editor, else on disk), to put back if a later write fails. */
  previous: string | undefined;
}

/**
 * The editor's writes: each file's folder is checked at its real location (workspace, protected
 * paths), and each file must still hold what the edit was computed from — read again as the edit
 * read it, the editor's text first — else nothing is written. Then the texts are written in
 * order; deletions and streamed rewrites, which an editor cannot take, go to disk afterwards. A
 * failure puts back the texts already written.
 */
async function commitThroughEditor(changes: readonly FileChange[], editor: Editor): Promise<void> {
  const writes: EditorWrite[] = [];
  const onDisk: FileChange[] = [];
  for (const change of changes) {
    const shown = change.shown ?? change.path;
    const problem = change.checkFolder?.(dirname(await resolveWriteTarget(change.path)));
    if (problem !== undefined) throw new WriteRefusedError(problem);
    if (change.bytes === null || typeof change.bytes === 'function') {
      onDisk.push(change);
      continue;
    }
    const current = await currentBytes(change.path, shown, editor);
    if (change.expect !== undefined && (current === null ? null : sha256(current)) !== change.expect) {
      throw new WriteRefusedError(
        `${shown} changed since read: it was changed (in the editor or on disk) while this edit was being made. ` +
          'Nothing was written. Read the file again, then redo the edit.',
      );
    }
    writes.push({
      change,
      shown,
      text: textOf(change.bytes),
      previous: current ? textOf(current) : undefined,
    });
  }
  const written: EditorWrite[] = [];
  try {
    for (const write of writes) {
      await editor.writeTextFile!(write.change.path, write.text).catch((error: Error) => {
        throw new WriteRefusedError(`${write.shown} could not be written by the editor: ${error.message}`);
      });
      written.push(write);
    }
    if (onDisk.length > 0) await commitFileChanges(onDisk);
  } catch (error) {
    for (const write of written.reverse())
      if (write.previous !== undefined)
        await editor.writeTextFile!(write.change.path, write.previous).catch(() => undefined);
    if (error instanceof WriteRefusedError && written.length > 0)
      throw new WriteRefusedError(`${error.message} The files already written were put back.`);
    throw error;
  }
}

/** A file's bytes as an edit reads them (the editor's text first), or null when it does not exist. */
async function currentBytes(path: string, shown: string, editor: Editor): Promise<Uint8Array | null> {
  const held = await heldTextBytes(editor, path);
  if (held) return held;
  return readRegularFile(path, shown).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
}

/** Text for the editor: the encoded bytes decoded back (the editor keeps the file's encoding). */
function textOf(bytes: Uint8Array | string): string {
  if (typeof bytes === 'string') return bytes;
  const decoded = decodeText(bytes);
  return decoded.ok ? decoded.text : Buffer.from(bytes).toString('utf8');
}
