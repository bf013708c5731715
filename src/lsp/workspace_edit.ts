import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { checkEncodable, encodeText, type TextFormat } from '../edit/codec.js';
import { lineStarts, offsetAt } from './text_positions.js';

/** The text edits a WorkspaceEdit makes to each file, or why lathe will not apply it. */
export type EditsByFile = { ok: true; files: Map<string, TextEdit[]> } | { ok: false; error: string };

/** Reads `changes` and `documentChanges`; file creations, renames and deletions are refused. */
export function editsByFile(edit: WorkspaceEdit | null | undefined): EditsByFile {
  const files = new Map<string, TextEdit[]>();
  const add = (uri: string, edits: readonly TextEdit[]) => {
    if (!uri.startsWith('file:')) return false;
    const path = fileURLToPath(uri);
    files.set(path, [...(files.get(path) ?? []), ...edits]);
    return true;
  };
  for (const [uri, edits] of Object.entries(edit?.changes ?? {})) {
    if (!add(uri, edits)) return { ok: false, error: `the server's edit names ${uri}, which is not a file` };
  }
  for (const change of edit?.documentChanges ?? []) {
    if (!('textDocument' in change))
      return {
        ok: false,
        error: `the server's edit would also ${change.kind} a file (${'uri' in change ? change.uri : change.oldUri}); lathe applies text edits only`,
      };
    const edits = change.edits.filter((e): e is TextEdit => 'range' in e && 'newText' in e);
    if (!add(change.textDocument.uri, edits))
      return { ok: false, error: `the server's edit names ${change.textDocument.uri}, which is not a file` };
  }
  return { ok: true, files };
}

/**
 * The server's text edits applied to one file's text, exactly as given (the positions are in the
 * text the server has); overlapping edits are refused.
 */
export function applyTextEdits(
  text: string,
  edits: readonly TextEdit[],
): { ok: true; text: string } | { ok: false; error: string } {
  const starts = lineStarts(text);
  const spans = edits
    .map((e, index) => ({
      from: offsetAt(text, starts, e.range.start),
      to: offsetAt(text, starts, e.range.end),
      text: e.newText,
      index,
    }))
    .sort((a, b) => a.from - b.from || a.to - b.to || a.index - b.index);
  for (let i = 1; i < spans.length; i++) {
    if (spans[i].from < spans[i - 1].to) return { ok: false, error: 'the server sent overlapping edits' };
  }
  let out = '';
  let at = 0;
  for (const span of spans) {
    out += text.slice(at, span.from) + span.text;
    at = span.to;
  }
  return { ok: true, text: out + text.slice(at) };
}

/** The new bytes of an edited file in its own encoding, or why they cannot be written. */
export function encodeEdited(
  text: string,
  format: TextFormat,
): { ok: true; bytes: Uint8Array } | { ok: false; error: string } {
  const encodable = checkEncodable(text, format);
  return encodable.ok ? { ok: true, bytes: encodeText(text, format) } : encodable;
}

/** Whether a file's mode lets no one write it (root could, but lathe does not change read-only files). */
export async function isReadOnlyFile(path: string): Promise<boolean> {
  const { mode } = await stat(path);
  return (mode & 0o222) === 0;
}
