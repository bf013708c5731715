import * as fs from 'node:fs/promises';
import { join } from 'node:path';
import { OpenFolder } from '../edit/open_folder.js';
import { replaceJsonFile } from '../util/json_file.js';

/**
 * JSONL files many writers share (team mailboxes, a team's task list). Every change holds the
 * file's lock (`OpenFolder.lock`, across processes too) and writes whole lines in one
 * call, so concurrent writers never interleave or lose a line; readers take only whole lines.
 */

async function withLock<T>(folder: string, name: string, work: (path: string) => Promise<T>): Promise<T> {
  await fs.mkdir(folder, { recursive: true, mode: 0o700 });
  const open = await OpenFolder.open(folder);
  try {
    const release = await open.lock(name, join(folder, name));
    try {
      return await work(open.entry(name));
    } finally {
      release();
    }
  } finally {
    await open.close();
  }
}

/** Appends records as lines of `folder/name`, holding its lock. */
export function appendRecords(folder: string, name: string, records: readonly unknown[]): Promise<void> {
  const text = records.map((record) => `${JSON.stringify(record)}\n`).join('');
  return withLock(folder, name, (path) => fs.appendFile(path, text, { mode: 0o600 }));
}

/** The whole lines of a JSONL file from byte `offset` on, and the offset after the last of them. */
async function linesFrom(path: string, offset: number): Promise<{ records: unknown[]; end: number }> {
  let data: Buffer;
  try {
    data = await fs.readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], end: 0 };
    throw error;
  }
  const start = Math.min(offset, data.length);
  const last = data.lastIndexOf(0x0a);
  if (last < start) return { records: [], end: start };
  const records: unknown[] = [];
  for (const line of data
    .subarray(start, last + 1)
    .toString('utf8')
    .split('\n')) {
    if (!line.trim()) continue;
    try {
      records.push(JSON.parse(line));
    } catch {
      // A line damaged by hand stays in the file; the others are still read.
    }
  }
  return { records, end: last + 1 };
}

/** Every record of `folder/name`. */
export async function readRecords(folder: string, name: string): Promise<unknown[]> {
  return (await linesFrom(join(folder, name), 0)).records;
}

/**
 * The records added since the last take, and the read position moved past them, both under the
 * file's lock: two readers never get the same record, and none is skipped.
 */
export function takeNewRecords(folder: string, name: string): Promise<unknown[]> {
  const cursorName = `${name}.read`;
  return withLock(folder, name, async (path) => {
    const cursorPath = join(folder, cursorName);
    const offset = Number.parseInt(await fs.readFile(cursorPath, 'utf8').catch(() => '0'), 10) || 0;
    const { records, end } = await linesFrom(path, offset);
    // The position is a bare number: its JSON is its decimal text.
    if (end !== offset) await replaceJsonFile(cursorPath, end, { mode: 0o600 });
    return records;
  });
}
