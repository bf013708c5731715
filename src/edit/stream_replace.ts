import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { crEndsLines, detectEol } from './line_endings.js';
import type { TimedRegex } from './timed_regex.js';

/**
 * Find-and-replace over a file too large to hold in memory, reading it in chunks: memory stays
 * near one chunk (plus one line, for a regex) whatever the file's size.
 *
 * A literal is matched on bytes (its UTF-8 form; UTF-8 never matches inside another character),
 * anywhere, across chunk and line boundaries. A regex is run line by line, in batches, in the
 * timed worker: in a streamed file it matches within one line, and a line longer than
 * MAX_LINE_BYTES is refused rather than held. Lines end as line_endings.ts says, the file's
 * ending judged by its first chunk (a CR file's lines end at each CR). Each piece is decoded as UTF-8, or as Latin-1 when
 * it is not valid UTF-8, and written back the same way, so the bytes it does not change stay.
 */

const CHUNK_BYTES = 1024 * 1024;
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

export type StreamReplacer =
  | { kind: 'literal'; find: string; replace: string }
  | { kind: 'regex'; regex: TimedRegex; replace: string };

/** Takes output bytes in order; absent when only counting. */
export type ByteSink = (bytes: Uint8Array) => Promise<void>;

export type StreamResult = { ok: true; count: number; hash: string } | { ok: false; error: string };

/** Streams the whole of `source` through the replacement; returns the match count and the input's sha256. */
export async function streamReplace(
  source: FileHandle,
  replacer: StreamReplacer,
  sink?: ByteSink,
): Promise<StreamResult> {
  const hash = createHash('sha256');
  const chunks = readChunks(source, (chunk) => hash.update(chunk));
  const result =
    replacer.kind === 'literal'
      ? await replaceLiteral(chunks, replacer.find, replacer.replace, sink)
      : await replaceByLine(chunks, replacer.regex, replacer.replace, sink);
  return result.ok ? { ...result, hash: hash.digest('hex') } : result;
}

async function* readChunks(source: FileHandle, seen: (chunk: Buffer) => void): AsyncGenerator<Buffer> {
  for (let position = 0; ; ) {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    const { bytesRead } = await source.read(buffer, 0, CHUNK_BYTES, position);
    if (bytesRead === 0) return;
    position += bytesRead;
    const chunk = buffer.subarray(0, bytesRead);
    seen(chunk);
    yield chunk;
  }
}

async function replaceLiteral(
  chunks: AsyncIterable<Buffer>,
  findText: string,
  replaceText: string,
  sink: ByteSink | undefined,
): Promise<{ ok: true; count: number }> {
  const find = Buffer.from(findText, 'utf8');
  const replace = Buffer.from(replaceText, 'utf8');
  let pending: Buffer = Buffer.alloc(0);
  let count = 0;
  const flush = async (buffer: Buffer, final: boolean): Promise<void> => {
    let from = 0;
    for (let at = buffer.indexOf(find, from); at !== -1; at = buffer.indexOf(find, from)) {
      await sink?.(buffer.subarray(from, at));
      await sink?.(replace);
      count++;
      from = at + find.length;
    }
    // A match may begin in the last find.length - 1 bytes and end in the next chunk: keep them.
    const keepFrom = final ? buffer.length : Math.max(from, buffer.length - (find.length - 1));
    await sink?.(buffer.subarray(from, keepFrom));
    pending = Buffer.from(buffer.subarray(keepFrom));
  };
  for await (const chunk of chunks)
    await flush(pending.length ? Buffer.concat([pending, chunk]) : chunk, false);
  await flush(pending, true);
  return { ok: true, count };
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

async function replaceByLine(
  chunks: AsyncIterable<Buffer>,
  regex: TimedRegex,
  replace: string,
  sink: ByteSink | undefined,
): Promise<{ ok: true; count: number } | { ok: false; error: string }> {
  let pending: Buffer = Buffer.alloc(0);
  let linesBefore = 0;
  let count = 0;
  let first = true;
  let crBreaks: boolean | undefined;

  /** Runs the regex over whole lines (`batch` ends at a line end, or at the end of the file). */
  const runBatch = async (batch: Buffer): Promise<string | undefined> => {
    if (first && batch.subarray(0, 3).equals(BOM)) {
      await sink?.(BOM);
      batch = batch.subarray(3);
    }
    first = false;
    if (batch.length === 0) return undefined;
    // A batch that is not UTF-8 is taken as Latin-1, whose characters map to bytes one to one.
    let text: string;
    let latin1 = false;
    try {
      text = UTF8.decode(batch);
    } catch {
      text = batch.toString('latin1');
      latin1 = true;
    }
    const result = await regex.replaceLines(text, replace, crBreaks === true);
    if (!result.ok) return result.error;
    count += result.count;
    if (latin1 && /[^\u0000-\u00ff]/.test(result.text)) {
      return `lines ${linesBefore + 1}-: the replacement holds characters this Latin-1 text cannot store`;
    }
    linesBefore += countBreaks(batch, crBreaks === true);
    await sink?.(Buffer.from(result.text, latin1 ? 'latin1' : 'utf8'));
    return undefined;
  };

  for await (const chunk of chunks) {
    crBreaks ??= crEndsLines(detectEol(chunk.toString('latin1')));
    const buffer = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    const cut = pastLastBreak(buffer, crBreaks);
    if (cut === 0) {
      pending = Buffer.from(buffer);
    } else {
      const error = await runBatch(buffer.subarray(0, cut));
      if (error) return { ok: false, error };
      pending = Buffer.from(buffer.subarray(cut));
    }
    if (pending.length > MAX_LINE_BYTES) {
      return {
        ok: false,
        error: `line ${linesBefore + 1} is longer than ${MAX_LINE_BYTES / 1024 / 1024} MB; a regex runs line by line in a file this large. Use a literal find, or edit the file with a narrower tool.`,
      };
    }
  }
  const error = await runBatch(pending);
  return error ? { ok: false, error } : { ok: true, count };
}

/** Offset just past the last line break known whole (a CR at the very end may begin a CRLF); 0 if none. */
function pastLastBreak(buffer: Buffer, crBreaks: boolean): number {
  const lf = buffer.lastIndexOf(10);
  const cr = crBreaks && buffer.length > 1 ? buffer.lastIndexOf(13, buffer.length - 2) : -1;
  return Math.max(lf, cr) + 1;
}

function countBreaks(bytes: Buffer, crBreaks: boolean): number {
  let n = 0;
  for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) n++;
  if (!crBreaks) return n;
  for (let at = bytes.indexOf(13); at !== -1; at = bytes.indexOf(13, at + 1)) if (bytes[at + 1] !== 10) n++;
  return n;
}

/** A sink writing to `handle` in pieces of about a chunk, not one system call per match. */
export function fileSink(handle: FileHandle): { write: ByteSink; flush: () => Promise<void> } {
  let parts: Uint8Array[] = [];
  let size = 0;
  const flush = async (): Promise<void> => {
    if (size === 0) return;
    const data = Buffer.concat(parts, size);
    parts = [];
    size = 0;
    await handle.write(data);
  };
  const write: ByteSink = async (bytes) => {
    if (bytes.length === 0) return;
    parts.push(bytes);
    size += bytes.length;
    if (size >= CHUNK_BYTES) await flush();
  };
  return { write, flush };
}
