import * as fs from 'node:fs/promises';
import { join } from 'node:path';

/** Bytes on disk (allocated blocks) of a folder and everything in it. */
export async function folderBytes(path: string): Promise<number> {
  let total = 0;
  const entries = await fs.readdir(path, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const full = join(path, entry.name);
    if (entry.isDirectory()) total += await folderBytes(full);
    else total += ((await fs.lstat(full).catch(() => undefined))?.blocks ?? 0) * 512;
  }
  return total;
}
