import { fileURLToPath } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import type { ServerConnection } from './server_connection.js';

/** Items one edit's result lists at most (errors first). */
export const MAX_DIAGNOSTIC_ITEMS = 20;
/** After a publish without a version, further publishes within this pause still count (servers publish in stages). */
const SETTLE_MS = 200;

const ERROR = 1;
const WARNING = 2;

/** What a server says of one file now, or why it said nothing. */
export type FileDiagnostics = { file: string; items: Diagnostic[] } | { file: string; unavailable: string };

/** A tsserver diagnostic as `typescript.tsserverRequest` returns it. */
interface TsDiagnostic {
  start: { line: number; offset: number };
  end: { line: number; offset: number };
  text: string;
  code?: number;
  category: string;
}

const TS_SEVERITY: Record<string, number> = { error: ERROR, warning: WARNING, suggestion: 4, message: 3 };

function fromTsserver(d: TsDiagnostic): Diagnostic {
  return {
    range: {
      start: { line: d.start.line - 1, character: d.start.offset - 1 },
      end: { line: d.end.line - 1, character: d.end.offset - 1 },
    },
    message: d.text,
    severity: (TS_SEVERITY[d.category] ?? 3) as Diagnostic['severity'],
    ...(d.code !== undefined ? { code: d.code } : {}),
    source: 'ts',
  };
}

/**
 * typescript-language-server publishes without a version and not at all when a clean file stays
 * clean, so its diagnostics are asked of tsserver directly: exact for the text just synced.
 */
async function tsserverDiagnostics(
  server: ServerConnection,
  file: string,
  signal?: AbortSignal,
): Promise<Diagnostic[]> {
  const ask = async (command: string): Promise<Diagnostic[]> => {
    const answer = await server.request<unknown>(
      'workspace/executeCommand',
      { command: 'typescript.tsserverRequest', arguments: [command, { file, includeLinePosition: false }] },
      signal,
    );
    const body = (answer as { body?: unknown })?.body ?? answer;
    return Array.isArray(body) ? (body as TsDiagnostic[]).map(fromTsserver) : [];
  };
  const [syntactic, semantic] = await Promise.all([
    ask('syntacticDiagnosticsSync'),
    ask('semanticDiagnosticsSync'),
  ]);
  return [...syntactic, ...semantic];
}

/** A file just made current on its server, for its diagnostics to be awaited. */
export interface SyncedFile {
  file: string;
  uri: string;
  version: number;
  changed: boolean;
  /** The server's publish count before the sync. */
  before: number;
}

export async function syncFile(
  server: ServerConnection,
  file: string,
  languageId: string,
): Promise<SyncedFile> {
  const before = server.publishSeq;
  const synced = await server.sync(file, languageId);
  return { file, uri: synced.uri, version: synced.version, changed: synced.changed, before };
}

/**
 * The diagnostics of a synced file at the version the server now has: pulled from tsserver, or
 * the server's publish for that version (a publish after the change, for servers that send no
 * version). Sync every file of an edit before asking, so none is judged against old neighbours.
 */
export async function diagnosticsOfSynced(
  server: ServerConnection,
  synced: SyncedFile,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<FileDiagnostics> {
  const { file, uri } = synced;
  if (server.diagnosticsMode === 'tsserver') {
    try {
      const items = await tsserverDiagnostics(server, file, signal);
      return answered(server, synced, items);
    } catch {
      return { file, unavailable: server.alive ? 'timeout' : 'crashed' };
    }
  }
  if (server.diagnosticsMode === 'pull' || server.capabilities.diagnosticProvider)
    return pulledDiagnostics(server, synced, timeoutMs, signal);
  const current = () => {
    const published = server.diagnostics.get(uri);
    if (!published) return false;
    if (published.version !== undefined) return published.version === synced.version;
    return !synced.changed || published.seq > synced.before;
  };
  const seen = await server.waitForPublish(current, timeoutMs, signal);
  if (!seen) return { file, unavailable: server.alive ? 'timeout' : 'crashed' };
  if (server.diagnostics.get(uri)?.version === undefined && synced.changed) {
    // No version to go by: a publish soon after may complete it.
    let last = server.diagnostics.get(uri)?.seq;
    while (await server.waitForPublish(() => server.diagnostics.get(uri)?.seq !== last, SETTLE_MS, signal)) {
      last = server.diagnostics.get(uri)?.seq;
    }
  }
  return answered(server, synced, server.diagnostics.get(uri)?.items ?? []);
}

/** A file's diagnostics as the server gave them: the server is warm now, and its errors are seen. */
function answered(server: ServerConnection, synced: SyncedFile, items: Diagnostic[]): FileDiagnostics {
  server.warm = true;
  server.errorsSeen.set(synced.uri, errorCount(items));
  return { file: synced.file, items };
}

/**
 * A server that answers `textDocument/diagnostic` (pyright) is asked: its publishes come in
 * passes (an empty one first), its answer to the pull is the file's whole report.
 */
async function pulledDiagnostics(
  server: ServerConnection,
  synced: SyncedFile,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<FileDiagnostics> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  const both = signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal;
  try {
    const report = await server.request<{ kind: string; items?: Diagnostic[] }>(
      'textDocument/diagnostic',
      { textDocument: { uri: synced.uri } },
      both,
    );
    return answered(server, synced, report?.kind === 'full' ? (report.items ?? []) : []);
  } catch {
    return { file: synced.file, unavailable: server.alive ? 'timeout' : 'crashed' };
  } finally {
    clearTimeout(timer);
  }
}

/** One file's diagnostics at its text on disk now. */
export async function diagnosticsNow(
  server: ServerConnection,
  file: string,
  languageId: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<FileDiagnostics> {
  return diagnosticsOfSynced(server, await syncFile(server, file, languageId), timeoutMs, signal);
}

export const errorCount = (items: readonly Diagnostic[]): number =>
  items.filter((d) => (d.severity ?? ERROR) === ERROR).length;

/**
 * Files lathe has open with the server (other than those asked about) whose errors grew since
 * `baseline` (uri → errors); what a server publishes of files lathe never opened is left out.
 */
export function newlyFailing(
  server: ServerConnection,
  baseline: ReadonlyMap<string, number>,
  asked: ReadonlySet<string>,
): Array<{ file: string; items: Diagnostic[] }> {
  const out: Array<{ file: string; items: Diagnostic[] }> = [];
  for (const [uri, published] of server.diagnostics) {
    if (!server.documents.has(uri)) continue;
    const file = uriPath(uri);
    if (asked.has(file)) continue;
    const errors = errorCount(published.items);
    if (errors > (baseline.get(uri) ?? 0))
      out.push({ file, items: published.items.filter((d) => (d.severity ?? ERROR) === ERROR) });
  }
  return out;
}

/** Error counts by document, before an edit, to tell which files newly gained errors. */
export function errorBaseline(server: ServerConnection): Map<string, number> {
  return new Map(server.errorsSeen);
}

/** A document URI as a path (other schemes as they are). */
export const uriPath = (uri: string): string => (uri.startsWith('file:') ? fileURLToPath(uri) : uri);

/** Every error and warning of these files, errors first, at most 50 lines; empty when there are none. */
export function listDiagnostics(
  files: ReadonlyArray<{ file: string; items: Diagnostic[] }>,
  show: (file: string) => string,
): string {
  const listed = files
    .flatMap((f) => f.items.filter((d) => (d.severity ?? ERROR) <= WARNING).map((d) => ({ file: f.file, d })))
    .sort((a, b) => (a.d.severity ?? ERROR) - (b.d.severity ?? ERROR));
  if (listed.length === 0) return '';
  const errors = listed.filter((x) => (x.d.severity ?? ERROR) === ERROR).length;
  const lines = [`${errors} errors, ${listed.length - errors} warnings`];
  for (const { file, d } of listed.slice(0, 50)) lines.push(`  ${diagnosticLine(show(file), d)}`);
  if (listed.length > 50) lines.push(`  … ${listed.length - 50} more`);
  return lines.join('\n');
}

const SEVERITY_NAME: Record<number, string> = { 1: 'error', 2: 'warning' };

/** One diagnostic as a line: `src/a.ts:3:7 error TS2322: message`. */
export function diagnosticLine(shown: string, d: Diagnostic): string {
  const { line, character } = d.range.start;
  const code = d.code !== undefined ? ` ${d.source === 'ts' ? 'TS' : ''}${d.code}` : '';
  const message = (typeof d.message === 'string' ? d.message : d.message.value).split('\n')[0];
  return `${shown}:${line + 1}:${character + 1} ${SEVERITY_NAME[d.severity ?? ERROR]}${code}: ${message}`;
}

/**
 * The line (and items) an edit's result ends with: `diagnostics: clean`, `diagnostics: N errors`
 * with at most 20 items, errors first, or `diagnostics: unavailable (why)`. Only errors and
 * warnings count; hints and information are left out.
 */
export function formatAfterEdit(
  results: readonly FileDiagnostics[],
  others: ReadonlyArray<{ file: string; items: Diagnostic[] }>,
  show: (file: string) => string,
): string {
  const unavailable = results.filter(
    (r): r is Extract<FileDiagnostics, { unavailable: string }> => 'unavailable' in r,
  );
  const answered = results.filter(
    (r): r is Extract<FileDiagnostics, { items: Diagnostic[] }> => 'items' in r,
  );
  if (answered.length === 0) {
    const why = [...new Set(unavailable.map((r) => r.unavailable))].join(', ');
    return `diagnostics: unavailable (${why || 'no server'})`;
  }
  const listed = [...answered, ...others].flatMap((r) =>
    r.items.filter((d) => (d.severity ?? ERROR) <= WARNING).map((d) => ({ file: r.file, d })),
  );
  const errors = listed.filter((x) => (x.d.severity ?? ERROR) === ERROR);
  const warnings = listed.filter((x) => x.d.severity === WARNING);
  const lines: string[] = [];
  if (listed.length === 0) lines.push('diagnostics: clean');
  else {
    const counts = [`${errors.length} error${errors.length === 1 ? '' : 's'}`];
    if (warnings.length > 0) counts.push(`${warnings.length} warning${warnings.length === 1 ? '' : 's'}`);
    lines.push(`diagnostics: ${counts.join(', ')}`);
    const shownItems = [...errors, ...warnings].slice(0, MAX_DIAGNOSTIC_ITEMS);
    for (const { file, d } of shownItems) lines.push(`  ${diagnosticLine(show(file), d)}`);
    if (listed.length > shownItems.length) lines.push(`  … ${listed.length - shownItems.length} more`);
  }
  for (const r of unavailable) lines.push(`diagnostics of ${show(r.file)}: unavailable (${r.unavailable})`);
  return lines.join('\n');
}
