import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Replacing a JSON file whole: written aside (a hidden temp file in the same folder, so the
 * rename stays within one file system) and renamed over it, so a reader never sees half a file
 * and a crash leaves the old one. The folder must exist.
 */

export interface JsonFileOptions {
  /** Mode bits of a new file (default: 0666 less the umask). */
  mode?: number;
  /** Indented, with a final newline, for files people read; compact otherwise. */
  pretty?: boolean;
}

function jsonText(value: unknown, pretty: boolean | undefined): string {
  return pretty ? `${JSON.stringify(value, null, 2)}\n` : JSON.stringify(value);
}

function tempBeside(path: string): string {
  return join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
}

export function replaceJsonFileSync(path: string, value: unknown, options: JsonFileOptions = {}): void {
  const temp = tempBeside(path);
  try {
    writeFileSync(temp, jsonText(value, options.pretty), { mode: options.mode });
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

export async function replaceJsonFile(
  path: string,
  value: unknown,
  options: JsonFileOptions = {},
): Promise<void> {
  const temp = tempBeside(path);
  try {
    await fs.writeFile(temp, jsonText(value, options.pretty), { mode: options.mode });
    await fs.rename(temp, path);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}
