import { createHash } from 'node:crypto';

/** The hash edits compare to know whether a file changed since it was read. */
export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}
