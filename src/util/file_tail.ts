import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/**
 * The last `maxBytes` of a file as text, without reading the rest; `cut` says the first line
 * may be a fragment. A file that cannot be read gives empty text.
 */
export function readFileTail(path: string, maxBytes: number): { text: string; cut: boolean } {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const size = fstatSync(fd).size;
    const length = Math.min(size, maxBytes);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    return { text: buffer.toString('utf8'), cut: size > length };
  } catch {
    return { text: '', cut: false };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
