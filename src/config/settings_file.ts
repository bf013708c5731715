import { lstatSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import { replaceJsonFileSync } from '../util/json_file.js';
import { noteOwnWrite } from '../util/own_writes.js';
import { parseJsonc } from './jsonc.js';

/**
 * A settings file lathe cannot use as written. It stops lathe (exit code 2) with this one line:
 * running with part of the user's settings dropped — a deny rule, a sandbox mode — would be
 * less safe than not running.
 */
export class SettingsError extends Error {
  override name = 'SettingsError';
}

/**
 * Reads a settings file (JSONC: comments, trailing commas and a BOM are fine) that must hold a
 * JSON object. A missing file is undefined; an empty one an empty object; anything else wrong
 * is a SettingsError naming the file, and the line and column where parsing stopped.
 */
export function readSettingsObject(file: string): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new SettingsError(`${file}: cannot be read (${code ?? (error as Error).message})`);
  }
  if (text.replace(/^\uFEFF/, '').trim() === '') return {};
  const parsed = parseJsonc(text);
  if (!parsed.ok) {
    const { line, column, message } = parsed.error;
    throw new SettingsError(`${file}:${line}:${column}: ${message}`);
  }
  const value = parsed.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new SettingsError(`${file}: must hold a JSON object ({ … })`);
  return value as Record<string, unknown>;
}

/**
 * Writes JSON through a temporary file and a rename, so a crash never leaves half a file. A
 * symlinked file (settings kept with one's dotfiles) is written at its target, the link kept.
 */
export function writeJsonFile(path: string, value: unknown): void {
  const file = linkTarget(path);
  mkdirSync(dirname(file), { recursive: true });
  replaceJsonFileSync(file, value, { mode: 0o600, pretty: true });
  noteOwnWrite(file);
}

function linkTarget(path: string): string {
  try {
    return lstatSync(path).isSymbolicLink() ? realpathSync(path) : path;
  } catch {
    return path;
  }
}
