import { createHash } from 'node:crypto';
import { openRegularFile } from './regular_file.js';

/** The hash edits compare to know whether a file changed since it was read. */
export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** sha256 of a regular file's bytes, read in pieces (a file of any size). */
export async function hashRegularFile(path: string, shown = path): Promise<string> {
  const handle = await openRegularFile(path, shown);
  try {
    const hash = createHash('sha256');
    const buffer = Buffer.allocUnsafe(1024 * 1024);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) return hash.digest('hex');
      hash.update(buffer.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
}
