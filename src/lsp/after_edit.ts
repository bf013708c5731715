import { basename, dirname, extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import {
  diagnosticsOfSynced,
  errorBaseline,
  errorCount,
  type FileDiagnostics,
  newlyFailing,
  type SyncedFile,
  syncFile,
} from './diagnostics.js';
import type { ServerConnection } from './server_connection.js';

/**
 * The files under `folder` whose text holds `word` as a whole word (ignore files honoured),
 * sorted, at most a few hundred: the tools' ripgrep, passed in from the layer that has it.
 */
export type WordSearch = (word: string, folder: string, signal?: AbortSignal) => Promise<string[]>;

/** Files importing an edited one whose diagnostics the edit's result also gives, at most. */
export const MAX_IMPORTERS = 20;

/** The name imports of a file use: its base name, or its folder's for an index file. */
export function moduleName(file: string): string {
  const base = basename(file, extname(file));
  return ['index', '__init__', 'mod', 'main'].includes(base) ? basename(dirname(file)) : base;
}

/** Every file synced first (the server sees the whole edit), then each one's diagnostics. */
export async function diagnosticsOfFiles(
  connection: ServerConnection,
  files: readonly string[],
  languageOf: (file: string) => string | undefined,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<FileDiagnostics[]> {
  const failed = (file: string): FileDiagnostics => ({
    file,
    unavailable: connection.alive ? 'timeout' : 'crashed',
  });
  const synced: Array<SyncedFile | FileDiagnostics> = [];
  for (const file of files) {
    synced.push(await syncFile(connection, file, languageOf(file) ?? '').catch(() => failed(file)));
  }
  return Promise.all(
    synced.map((s) =>
      'uri' in s ? diagnosticsOfSynced(connection, s, timeoutMs, signal).catch(() => failed(s.file)) : s,
    ),
  );
}

/**
 * What one server says after an edit: the edited files' diagnostics, and the errors of files
 * that gained some — the importers of the edited files (opened for this) and the other files
 * lathe has open with the server.
 */
export async function diagnosticsOfEdit(
  connection: ServerConnection,
  edited: readonly string[],
  importers: readonly string[],
  languageOf: (file: string) => string | undefined,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<{ results: FileDiagnostics[]; others: Array<{ file: string; items: Diagnostic[] }> }> {
  const baseline = errorBaseline(connection);
  const importing = new Set(importers);
  const answers = await diagnosticsOfFiles(
    connection,
    [...edited, ...importers],
    languageOf,
    timeoutMs,
    signal,
  );
  const grown = answers.flatMap((a) =>
    importing.has(a.file) &&
    'items' in a &&
    errorCount(a.items) > (baseline.get(pathToFileURL(a.file).href) ?? 0)
      ? [{ file: a.file, items: a.items.filter((d) => (d.severity ?? 1) === 1) }]
      : [],
  );
  return {
    results: answers.filter((a) => !importing.has(a.file)),
    others: [...grown, ...newlyFailing(connection, baseline, new Set([...edited, ...importers]))],
  };
}
