import type { EditorAccess } from '../../tool/context/editor.js';

/**
 * A text file as the program driving lathe holds it (an unsaved buffer in an editor), as UTF-8
 * bytes so that it decodes, hashes and compares as the file's own bytes would; undefined when
 * the program has no text for it, and then the disk is read. Every read of a file's text for
 * reading or editing goes through here.
 */
export async function heldTextBytes(
  editor: Pick<EditorAccess, 'readTextFile'> | undefined,
  path: string,
): Promise<Buffer | undefined> {
  if (!editor?.readTextFile) return undefined;
  const text = await editor.readTextFile(path);
  return typeof text === 'string' ? Buffer.from(text, 'utf8') : undefined;
}
