import { type ExpectedContent, WriteRefusedError } from '../../edit/atomic_write.js';
import { checkEncodable, decodeText, encodeText, type TextFormat } from '../../edit/codec.js';
import { readRegularFile } from '../../edit/regular_file.js';
import type { EditorAccess } from '../../tool/context/editor.js';
import type { ToolContext } from '../../tool/types.js';
import { sha256 } from '../files/read_text.js';
import { heldTextBytes } from '../shared/editor_text.js';
import { absolutePath, displayPath } from '../shared/paths.js';
import { writeTextChange } from './text_writes.js';
import { editFolderCheck } from './write_guard.js';

export const NEW_FILE_FORMAT: TextFormat = { encoding: 'utf8', eol: '\n', finalNewline: true };

export type LoadedText =
  | { ok: true; text: string; format: TextFormat; hash: string }
  | { ok: false; missing: boolean; error: string };

/**
 * Reads a file for editing: decoded (encoding and BOM remembered), with the hash of its bytes.
 * With an editor that holds the file's text (`editor`), that text is what is edited, and its
 * hash what the write checks again.
 */
export async function loadTextFile(
  absolute: string,
  shown: string,
  editor?: Pick<EditorAccess, 'readTextFile'>,
): Promise<LoadedText> {
  let bytes: Buffer;
  try {
    bytes = (await heldTextBytes(editor, absolute)) ?? (await readRegularFile(absolute, shown));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: false, missing: true, error: `${shown} does not exist.` };
    if (code === 'EISDIR') return { ok: false, missing: false, error: `${shown} is a folder, not a file.` };
    if (code === 'ENOTREG') return { ok: false, missing: false, error: (error as Error).message };
    return { ok: false, missing: false, error: `${shown} cannot be read: ${(error as Error).message}` };
  }
  const decoded = decodeText(bytes);
  if (!decoded.ok) return { ok: false, missing: false, error: `${shown}: ${decoded.error}` };
  return { ok: true, text: decoded.text, format: decoded.format, hash: sha256(bytes) };
}

/** The file an edit tool's `path` names, as shown to the model, loaded for editing. */
export async function loadEditTarget(
  ctx: Pick<ToolContext, 'cwd' | 'workspace' | 'editor'>,
  inputPath: string,
): Promise<{ path: string; shown: string; loaded: LoadedText }> {
  const path = absolutePath(ctx, inputPath);
  const shown = displayPath(ctx, path);
  return { path, shown, loaded: await loadTextFile(path, shown, ctx.editor) };
}

/**
 * Writes text in the given format atomically (temp file, fsync, rename; mode bits kept), or
 * through the editor when it writes, and remembers the new content hash as read, so the next
 * edit needs no fresh read. `expect` is the hash the edit was computed from (null: the file did
 * not exist): if the file changed meanwhile, nothing is written and the error says "changed since read".
 */
export async function saveTextFile(
  absolute: string,
  shown: string,
  text: string,
  format: TextFormat,
  ctx: Pick<ToolContext, 'readFiles' | 'workspace' | 'documentsRoot' | 'editor'>,
  expect: ExpectedContent,
): Promise<{ ok: true } | { ok: false; error: string }> {
  const encodable = checkEncodable(text, format);
  if (!encodable.ok) return { ok: false, error: `${shown}: ${encodable.error}. Nothing was written.` };
  const bytes = encodeText(text, format);
  try {
    await writeTextChange(
      { path: absolute, bytes, expect, shown, checkFolder: editFolderCheck(ctx, absolute) },
      ctx.editor,
    );
  } catch (error) {
    if (error instanceof WriteRefusedError) return { ok: false, error: error.message };
    throw error;
  }
  ctx.readFiles.saw(absolute, bytes);
  return { ok: true };
}

/** The content an edit expects to replace: the hash it read, or null for a missing file. */
export function expectedContent(loaded: LoadedText): ExpectedContent {
  return loaded.ok ? loaded.hash : loaded.missing ? null : undefined;
}
