import type { FileHandle } from 'node:fs/promises';
import { WriteRefusedError } from '../../edit/atomic_write.js';
import { checkEncodable, encodeText, isProbablyBinary } from '../../edit/codec.js';
import type { FileChange } from '../../edit/file_transaction.js';
import { applyViewEdits, lfView } from '../../edit/lf_view.js';
import { crEndsLines, type Eol } from '../../edit/line_endings.js';
import { openRegularFile } from '../../edit/regular_file.js';
import { fileSink, type StreamReplacer, streamReplace } from '../../edit/stream_replace.js';
import type { TimedRegex } from '../../edit/timed_regex.js';
import type { ToolContext } from '../../tool/types.js';
import { pathKind } from '../shared/paths.js';
import { compactDiff } from './compact_diff.js';
import { loadTextFile } from './text_file.js';
import { editFolderCheck } from './write_guard.js';

/** Files up to this size are read whole; larger ones are streamed with bounded memory. */
export const STREAM_FROM_BYTES = 8 * 1024 * 1024;

interface ReplaceSpec {
  find: string;
  replace: string;
  preview?: boolean;
}

/** One file's part of a replace_text call: no change, a change to commit, or an error for the whole call. */
export type FilePlan =
  | { ok: true; change?: FileChange; count: number; diff?: string }
  | { ok: false; error: string };

const NO_CHANGE: FilePlan = { ok: true, count: 0 };

/** Works out what replacing in one file does, without writing it. */
export async function planFileReplace(
  absolute: string,
  shown: string,
  spec: ReplaceSpec,
  regex: TimedRegex | undefined,
  ctx: Pick<ToolContext, 'workspace' | 'documentsRoot' | 'editor'>,
): Promise<FilePlan> {
  const { size } = await pathKind(absolute);
  const base = { path: absolute, shown, checkFolder: editFolderCheck(ctx, absolute) };
  return size > STREAM_FROM_BYTES
    ? planStreamed(absolute, shown, spec, regex, base)
    : planWhole(absolute, shown, spec, regex, base, ctx.editor);
}

type ChangeBase = Pick<FileChange, 'path' | 'shown' | 'checkFolder'>;

async function planWhole(
  absolute: string,
  shown: string,
  spec: ReplaceSpec,
  regex: TimedRegex | undefined,
  base: ChangeBase,
  editor: ToolContext['editor'],
): Promise<FilePlan> {
  const loaded = await loadTextFile(absolute, shown, editor);
  // Binary files, FIFOs and the like are passed over, as a search would.
  if (!loaded.ok) return NO_CHANGE;
  let text: string;
  let count: number;
  if (regex === undefined) {
    const parts = loaded.text.split(spec.find);
    text = parts.join(spec.replace);
    count = parts.length - 1;
  } else {
    const replaced = await regexReplace(loaded.text, loaded.format.eol, regex, spec.replace);
    if (!replaced.ok) return { ok: false, error: `${shown}: ${replaced.error}.` };
    ({ text, count } = replaced);
  }
  if (count === 0 || text === loaded.text) return NO_CHANGE;
  const encodable = checkEncodable(text, loaded.format);
  if (!encodable.ok) return { ok: false, error: `${shown}: ${encodable.error}.` };
  const change: FileChange = { ...base, bytes: encodeText(text, loaded.format), expect: loaded.hash };
  const diff = spec.preview ? await compactDiff(shown, loaded.text, text) : undefined;
  return { ok: true, change, count, diff };
}

/**
 * A regex over a whole file sees its lines as the file's rule has them (line_endings.ts): every
 * break as LF, so `^`, `$` and `\s` never split a CRLF and a CR file has lines too; each match
 * is then replaced in the original, its line breaks written as the text it replaces had them.
 */
async function regexReplace(
  original: string,
  eol: Eol,
  regex: TimedRegex,
  replace: string,
): Promise<{ ok: true; text: string; count: number } | { ok: false; error: string }> {
  const crBreaks = crEndsLines(eol);
  const view = lfView(original, crBreaks);
  const found = await regex.matches(view.text, replace);
  if (!found.ok) return found;
  const edits = found.starts.map((start, k) => ({ start, end: found.ends[k], text: found.replacements[k] }));
  return { ok: true, text: applyViewEdits(original, view, edits, crBreaks, eol), count: edits.length };
}

async function planStreamed(
  absolute: string,
  shown: string,
  spec: ReplaceSpec,
  regex: TimedRegex | undefined,
  base: ChangeBase,
): Promise<FilePlan> {
  const replacer: StreamReplacer =
    regex === undefined
      ? { kind: 'literal', find: spec.find, replace: spec.replace }
      : { kind: 'regex', regex, replace: spec.replace };
  const source = await openRegularFile(absolute, shown).catch(() => undefined);
  if (source === undefined) return NO_CHANGE;
  let counted: Awaited<ReturnType<typeof streamReplace>>;
  try {
    const head = Buffer.alloc(8192);
    const { bytesRead } = await source.read(head, 0, head.length, 0);
    const sample = head.subarray(0, bytesRead);
    // UTF-16 (a BOM) is decoded whole only; binary files are passed over, as when read whole.
    if (isProbablyBinary(sample) || sample[0] === 0xff || sample[0] === 0xfe) return NO_CHANGE;
    counted = await streamReplace(source, replacer);
  } finally {
    await source.close();
  }
  if (!counted.ok) return { ok: false, error: `${shown}: ${counted.error}` };
  if (counted.count === 0) return NO_CHANGE;
  const expected = counted.hash;
  // The second pass writes the new content straight into the temp file being committed.
  const write = async (out: FileHandle): Promise<void> => {
    const again = await openRegularFile(absolute, shown);
    try {
      const sink = fileSink(out);
      const result = await streamReplace(again, replacer, sink.write);
      await sink.flush();
      if (!result.ok) throw new WriteRefusedError(`${shown}: ${result.error}`);
      if (result.hash !== expected) {
        throw new WriteRefusedError(
          `${shown} changed since read: it changed while it was being replaced in.`,
        );
      }
    } finally {
      await again.close();
    }
  };
  const diff = spec.preview ? `(${shown} is over 8 MB: its diff is not shown)` : undefined;
  return { ok: true, change: { ...base, bytes: write, expect: expected }, count: counted.count, diff };
}
