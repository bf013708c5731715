import { open, stat } from 'node:fs/promises';

/**
 * Bytes of a file from `from`, at most `maxBytes`, cut back to whole UTF-8 characters unless the
 * slice ends the file of a writer that has finished (`complete`).
 */
export async function readSlice(
  path: string,
  from: number,
  maxBytes: number,
  complete = false,
): Promise<{ text: string; bytes: number; size: number }> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(path, 'r');
    const size = (await handle.stat()).size;
    const length = Math.max(0, Math.min(maxBytes, size - from));
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, from);
    const whole = wholeCharacters(buffer.subarray(0, bytesRead), from + bytesRead < size || !complete);
    return { text: whole.toString('utf8'), bytes: whole.length, size };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { text: '', bytes: 0, size: 0 };
    throw error;
  } finally {
    await handle?.close();
  }
}

export async function fileSize(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch {
    return 0;
  }
}

/** Drops a multi-byte character cut in two at the end, when its other bytes may follow. */
function wholeCharacters(buffer: Buffer, moreFollows: boolean): Buffer {
  if (!moreFollows || buffer.length === 0) return buffer;
  let start = buffer.length - 1;
  // Walk back over continuation bytes (10xxxxxx) to the character's lead byte.
  while (start > 0 && buffer.length - start < 4 && (buffer[start] & 0xc0) === 0x80) start--;
  const lead = buffer[start];
  const width = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return buffer.length - start < width ? buffer.subarray(0, start) : buffer;
}
