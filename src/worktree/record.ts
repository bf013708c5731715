import * as fs from 'node:fs/promises';
import { replaceJsonFile } from '../util/json_file.js';
import type { ProcessIdentity } from '../util/process_identity.js';

/**
 * What lathe keeps beside each worktree folder (`<name>.json`): where it came from, the process
 * that owns it (a worktree whose owner is gone is a leftover), and the files copied into it.
 */
export interface WorktreeRecord {
  name: string;
  branch: string;
  dir: string;
  baseSha: string;
  /** The checkout it was made from. */
  repoRoot: string;
  /** The git folder shared by every checkout of the repository. */
  commonDir: string;
  /** The process working in it; null once released with `keep` (then it is never pruned). */
  owner: ProcessIdentity | null;
  created: string;
  /** False until the folder is checked out and set up: a record left false was cut short. */
  ready: boolean;
  /** Paths (relative to the worktree) copied from the main checkout: never committed. */
  included: string[];
}

export function writeRecord(path: string, record: WorktreeRecord): Promise<void> {
  return replaceJsonFile(path, record, { mode: 0o600, pretty: true });
}

/** The record at `path`, or undefined when there is none or it is not one. */
export async function readRecord(path: string): Promise<WorktreeRecord | undefined> {
  try {
    const record = JSON.parse(await fs.readFile(path, 'utf8')) as WorktreeRecord;
    const fields = [
      record.name,
      record.branch,
      record.dir,
      record.baseSha,
      record.repoRoot,
      record.commonDir,
    ];
    if (!fields.every((field) => typeof field === 'string')) return undefined;
    return { ...record, included: Array.isArray(record.included) ? record.included : [] };
  } catch {
    return undefined;
  }
}
