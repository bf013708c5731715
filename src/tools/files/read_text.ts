import { decodeText, isProbablyBinary } from '../../edit/codec.js';
import { sha256 } from '../../edit/content_hash.js';
import { openRegularFile, readRegularFile } from '../../edit/regular_file.js';
import type { EditorAccess } from '../../tool/context/editor.js';
import { lazyBuiltin } from '../../util/lazy_builtin.js';
import { heldTextBytes } from '../shared/editor_text.js';
import { formatCount } from '../shared/paths.js';

/** Files up to this size are read whole (and hashed for edit checks); larger ones are streamed. */
export const WHOLE_FILE_BYTES = 10 * 1024 * 1024;
export const DEFAULT_LINE_LIMIT = 2_000;
export const MAX_LINE_CHARS = 2_000;

export interface TextSlice {
  text: string;
  /** sha256 of the file's bytes, when it was read whole. */
  hash?: string;
  /** Facts for clients and tests. */
  data: { firstLine: number; lastLine: number; totalLines?: number; encoding?: string; truncated: boolean };
}

export type TextRead = { ok: true; slice: TextSlice } | { ok: false; error: string };

export { sha256 } from '../../edit/content_hash.js';

function numbered(lineNumber: number, line: string): string {
  const body =
    line.length > MAX_LINE_CHARS
      ? `${line.slice(0, MAX_LINE_CHARS)}… [line cut: ${formatCount(line.length)} characters]`
      : line;
  return `${lineNumber}\t${body}`;
}

/**
 * Formats lines `offset…` with their 1-based numbers, stopping at `limit` lines or when the
 * text would pass `budget` characters, and says how to page on.
 */
function formatSlice(
  lines: Iterable<string>,
  offset: number,
  limit: number,
  budget: number,
  totalLines: number | undefined,
  shown: string,
): Omit<TextSlice, 'hash'> {
  const out: string[] = [];
  let used = 0;
  let lineNumber = offset;
  let stoppedEarly = false;
  for (const line of lines) {
    const formatted = numbered(lineNumber, line);
    if (out.length >= limit || (out.length > 0 && used + formatted.length + 1 > budget)) {
      stoppedEarly = true;
      break;
    }
    out.push(formatted);
    used += formatted.length + 1;
    lineNumber++;
  }
  const last = offset + out.length - 1;
  let text = out.join('\n');
  const moreAfter = stoppedEarly || (totalLines !== undefined && last < totalLines);
  if (moreAfter) {
    const of = totalLines !== undefined ? ` of ${formatCount(totalLines)}` : '';
    text += `\n\n[Showing lines ${offset}-${last}${of} of ${shown}. To continue, call read_file with offset=${last + 1}.]`;
  }
  return { text, data: { firstLine: offset, lastLine: last, totalLines, truncated: moreAfter } };
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function pastTheEnd(offset: number, shown: string, lines: number): TextRead {
  return {
    ok: false,
    error: `offset ${offset} is past the end of ${shown}, which has ${formatCount(lines)} lines.`,
  };
}

/** A text file's bytes, read whole: decoded by the codec (BOM, UTF-16, Latin-1), hashed for edit checks. */
function sliceWhole(bytes: Buffer, shown: string, offset: number, limit: number, budget: number): TextRead {
  const decoded = decodeText(bytes);
  if (!decoded.ok) return { ok: false, error: `${shown}: ${decoded.error}` };
  const lines = splitLines(decoded.text);
  const hash = sha256(bytes);
  if (lines.length === 0) {
    return {
      ok: true,
      slice: {
        text: `(${shown} is empty)`,
        hash,
        data: { firstLine: 0, lastLine: 0, totalLines: 0, truncated: false },
      },
    };
  }
  if (offset > lines.length) return pastTheEnd(offset, shown, lines.length);
  const slice = formatSlice(lines.slice(offset - 1), offset, limit, budget, lines.length, shown);
  const encoding = decoded.format.encoding;
  if (encoding === 'latin1') slice.text = `[${shown} is not valid UTF-8; shown as Latin-1]\n${slice.text}`;
  return { ok: true, slice: { ...slice, hash, data: { ...slice.data, encoding } } };
}

/** Reads a very large text file as a stream, keeping only the requested lines in memory. */
async function readStreamed(
  path: string,
  shown: string,
  offset: number,
  limit: number,
  budget: number,
): Promise<TextRead> {
  const handle = await openRegularFile(path, shown);
  const head = new Uint8Array(8192);
  const { bytesRead } = await handle.read(head, 0, head.length, 0).catch(async (error) => {
    await handle.close();
    throw error;
  });
  if (isProbablyBinary(head.subarray(0, bytesRead))) {
    await handle.close();
    return {
      ok: false,
      error: `${shown} is a binary file; read_file shows text, images, PDFs and notebooks.`,
    };
  }
  // The stream reads the handle that was checked, from the start, and closes it when done.
  const stream = handle.createReadStream({ encoding: 'utf8', start: 0 });
  const { createInterface } = lazyBuiltin('node:readline');
  const reader = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  const wanted: string[] = [];
  let lineNumber = 0;
  let more = false;
  for await (const line of reader) {
    lineNumber++;
    if (lineNumber < offset) continue;
    if (wanted.length > limit) {
      more = true;
      break;
    }
    wanted.push(line);
  }
  reader.close();
  stream.destroy();
  if (wanted.length === 0) return pastTheEnd(offset, shown, lineNumber);
  const slice = formatSlice(wanted, offset, limit, budget, more ? undefined : lineNumber, shown);
  return { ok: true, slice };
}

/**
 * Lines of a text file, numbered: the text the editor holds for it when there is one (`editor`),
 * else the file, read whole up to `WHOLE_FILE_BYTES` and streamed beyond.
 */
export async function readTextSlice(
  path: string,
  shown: string,
  size: number,
  options: { offset?: number; limit?: number; budget: number; editor?: Pick<EditorAccess, 'readTextFile'> },
): Promise<TextRead> {
  const offset = options.offset ?? 1;
  const limit = options.limit ?? DEFAULT_LINE_LIMIT;
  const held = await heldTextBytes(options.editor, path);
  if (held) return sliceWhole(held, shown, offset, limit, options.budget);
  return size <= WHOLE_FILE_BYTES
    ? sliceWhole(await readRegularFile(path, shown), shown, offset, limit, options.budget)
    : readStreamed(path, shown, offset, limit, options.budget);
}
