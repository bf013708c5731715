import { type FileMode, readBlob } from './fast_import.js';
import { isRegularMode, modeOf } from './file_stats.js';
import { MAX_FILE_BYTES, tooLarge } from './walk.js';

/** A file's bytes as a checkpoint holds them, from its stats; or why it is left out. */
export type CheckpointBytes = { mode: FileMode; data: Buffer } | { reason: string; unreadable: boolean };

export function checkpointBytes(abs: string, stat: { mode: number; size: number }): CheckpointBytes {
  if (isRegularMode(stat.mode) && stat.size > MAX_FILE_BYTES)
    return { reason: tooLarge(stat.size), unreadable: false };
  const mode = modeOf(stat);
  try {
    return { mode, data: readBlob(abs, mode) };
  } catch {
    return { reason: 'not readable', unreadable: true };
  }
}
