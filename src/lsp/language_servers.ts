import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { DEFAULT_LSP_SETTINGS, type LspSettings } from '../config/lsp_settings.js';
import type {
  LanguageServerAccess,
  LanguageServerHandle,
  LanguageServerUnavailable,
} from '../tool/context/language_servers.js';
import { pathInside } from '../util/inside_folder.js';
import {
  diagnosticsNow,
  diagnosticsOfSynced,
  errorBaseline,
  type FileDiagnostics,
  formatAfterEdit,
  listDiagnostics,
  newlyFailing,
  type SyncedFile,
  syncFile,
  uriPath,
} from './diagnostics.js';
import { languageOfPath } from './languages.js';
import { ServerConnection } from './server_connection.js';
import { type ServerSpec, serverTable } from './server_table.js';

/** A server unused this long is shut down; the next request starts it again. */
const IDLE_MS = 5 * 60_000;
/** Restarts after crashes before a server is given up on (`unavailable: crashed`). */
const MAX_RESTARTS = 3;
/** Edited files whose diagnostics one result lists at most. */
const MAX_EDITED_FILES = 20;

export interface LanguageServersOptions {
  /** Settings `lsp` (the table and the diagnostics after edits). */
  settings?: LspSettings;
  /** PATH to find servers on (default the process's). */
  path?: string;
  /** Added to every server's environment. */
  env?: Record<string, string>;
  idleMs?: number;
  initTimeoutMs?: number;
  requestTimeoutMs?: number;
}

type State = 'starting' | 'running' | 'restarting' | 'crashed';

interface Entry {
  spec: ServerSpec & { command: string };
  root: string;
  state: State;
  connection?: ServerConnection;
  starting?: Promise<ServerConnection>;
  crashes: number;
  lastCrash?: { at: number; reason: string };
  idle?: NodeJS.Timeout;
}

/** One row of `lathe lsp status`. */
export interface ServerStatus {
  name: string;
  languages: string[];
  found: boolean;
  command?: string;
  version?: string;
  /** `not started`, or each root's state: `running (src/app)`, `crashed: …`. */
  state: string;
  problem?: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

/**
 * The language servers of a process: one per (project root, server), started on the first
 * request for a file of its language, shared by every runtime and child agent, shut down when
 * idle, restarted with backoff after a crash (3 times, then `unavailable: crashed`). The table
 * is complete when this is made, before any request.
 */
export class LanguageServers implements LanguageServerAccess {
  readonly table: readonly ServerSpec[];
  readonly settings: LspSettings;
  private readonly entries = new Map<string, Entry>();
  private readonly extensions: Record<string, string>;
  private disposed = false;
  private exitHooked = false;
  private readonly killAll = () => {
    for (const entry of this.entries.values()) entry.connection?.kill();
  };

  constructor(private readonly options: LanguageServersOptions = {}) {
    this.settings = options.settings ?? DEFAULT_LSP_SETTINGS;
    this.table = serverTable(this.settings.servers, options.path ?? process.env.PATH);
    this.extensions = Object.assign({}, ...this.table.map((s) => s.extensions));
  }

  /** Whether any server can be started (the tools that need one are offered). */
  get available(): boolean {
    return this.table.some((s) => s.command !== undefined);
  }

  languageOf(file: string): string | undefined {
    return languageOfPath(file, this.extensions);
  }

  /** The table entry serving a language (a found one first). */
  specFor(language: string): ServerSpec | undefined {
    const serving = this.table.filter((s) => s.languages.includes(language));
    return serving.find((s) => s.command !== undefined) ?? serving[0];
  }

  async serverFor(
    file: string,
    options: { workspace: string; signal?: AbortSignal },
  ): Promise<LanguageServerHandle | LanguageServerUnavailable> {
    const found = await this.connectionFor(file, options.workspace);
    if ('unavailable' in found) return found;
    const { entry, connection, language } = found;
    return {
      name: entry.spec.name,
      language,
      root: entry.root,
      capabilities: connection.capabilities,
      sync: async (path) => {
        this.touch(entry);
        const synced = await connection.sync(path, this.languageOf(path) ?? language);
        return { uri: synced.uri, text: synced.text };
      },
      request: <R>(method: string, params: unknown, signal?: AbortSignal) => {
        this.touch(entry);
        return connection.request<R>(method, params, signal ?? options.signal);
      },
    };
  }

  /** The running connection for a file's server, started (or restarted) if need be. */
  private async connectionFor(
    file: string,
    workspace: string,
  ): Promise<
    | { entry: Entry; connection: ServerConnection; language: string; cold: boolean }
    | LanguageServerUnavailable
  > {
    const language = this.languageOf(file);
    if (!language)
      return { unavailable: `${shownName(file, workspace)} is not a source file a language server knows` };
    const spec = this.specFor(language);
    if (!spec) return { unavailable: `no server for ${language}`, language };
    if (!spec.command)
      return {
        unavailable: `no server for ${language} (${spec.name}: ${spec.missing ?? 'not found'})`,
        language,
      };
    if (this.disposed) return { unavailable: 'language servers are shut down', language };
    const root = projectRoot(file, spec.rootMarkers, workspace);
    const key = `${spec.name}\0${root}`;
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { spec: spec as Entry['spec'], root, state: 'starting', crashes: 0 };
      this.entries.set(key, entry);
    }
    if (entry.state === 'crashed')
      return {
        unavailable: `crashed (${spec.name}: ${entry.lastCrash?.reason ?? 'it kept exiting'})`,
        language,
      };
    const cold = !entry.connection?.alive || !entry.connection.warm;
    try {
      const connection = await this.ensureStarted(entry);
      this.touch(entry);
      return { entry, connection, language, cold };
    } catch (error) {
      return { unavailable: (error as Error).message, language };
    }
  }

  private ensureStarted(entry: Entry): Promise<ServerConnection> {
    if (entry.connection?.alive) return Promise.resolve(entry.connection);
    entry.starting ??= this.start(entry).finally(() => {
      entry.starting = undefined;
    });
    return entry.starting;
  }

  private async start(entry: Entry): Promise<ServerConnection> {
    if (entry.lastCrash) {
      // Backoff: 250 ms after the first crash, 500 ms after the second, 1 s after the third.
      const wait = 250 * 2 ** (entry.crashes - 1) - (Date.now() - entry.lastCrash.at);
      if (wait > 0) await sleep(wait);
    }
    if (!this.exitHooked) {
      // No server outlives lathe, however it exits.
      process.on('exit', this.killAll);
      this.exitHooked = true;
    }
    const connection = await ServerConnection.start({
      spec: entry.spec,
      root: entry.root,
      env: this.options.env,
      initTimeoutMs: this.options.initTimeoutMs ?? 30_000,
      requestTimeoutMs: this.options.requestTimeoutMs ?? 30_000,
      onCrash: (reason) => this.crashed(entry, reason),
    }).catch((error: Error) => {
      this.crashed(entry, error.message);
      throw error;
    });
    if (this.disposed) {
      connection.kill();
      throw new Error('language servers are shut down');
    }
    entry.connection = connection;
    entry.state = 'running';
    return connection;
  }

  private crashed(entry: Entry, reason: string): void {
    if (entry.idle) clearTimeout(entry.idle);
    entry.crashes++;
    entry.lastCrash = { at: Date.now(), reason };
    entry.state = entry.crashes > MAX_RESTARTS ? 'crashed' : 'restarting';
  }

  /** A use keeps the server up for another idle period. */
  private touch(entry: Entry): void {
    if (entry.idle) clearTimeout(entry.idle);
    entry.idle = setTimeout(() => {
      const connection = entry.connection;
      entry.connection = undefined;
      entry.state = 'starting';
      void connection?.stop();
    }, this.options.idleMs ?? IDLE_MS);
    entry.idle.unref();
  }

  /** Whether a file is source of a language with a server, in a folder its server's markers call a project. */
  private inProject(file: string, workspace: string): boolean {
    const language = this.languageOf(file);
    const markers = language ? this.specFor(language)?.rootMarkers : undefined;
    if (!markers) return false;
    return markers.length === 0 || markedRoot(file, markers, workspace) !== undefined;
  }

  async diagnosticsAfterEdit(
    files: readonly string[],
    call: { since: number; signal: AbortSignal; workspace: string },
  ): Promise<string | undefined> {
    if (!this.settings.diagnosticsAfterEdit || this.disposed) return undefined;
    // Files a glob-wide edit left alone, and deleted ones, are not asked about; nor is a file in
    // no project (no root marker up to the workspace): a stray script is not worth starting a
    // server for after each edit (the lsp tool still serves it).
    const edited = files
      .filter((file) => this.inProject(file, call.workspace))
      .filter((file) => {
        try {
          return statSync(file).mtimeMs >= call.since - 1000;
        } catch {
          return false;
        }
      })
      .slice(0, MAX_EDITED_FILES);
    if (edited.length === 0) return undefined;
    const results: FileDiagnostics[] = [];
    const others: Array<{ file: string; items: Diagnostic[] }> = [];
    const byServer = new Map<ServerConnection, { files: string[]; cold: boolean }>();
    for (const file of edited) {
      const found = await this.connectionFor(file, call.workspace);
      if ('unavailable' in found) {
        const spec = found.language ? this.specFor(found.language) : undefined;
        if (spec?.command === undefined && !found.unavailable.startsWith('crashed')) continue;
        results.push({
          file,
          unavailable: found.unavailable.startsWith('crashed') ? 'crashed' : 'no server',
        });
        continue;
      }
      const group = byServer.get(found.connection) ?? { files: [], cold: found.cold };
      group.files.push(file);
      byServer.set(found.connection, group);
    }
    await Promise.all(
      [...byServer].map(async ([connection, group]) => {
        const baseline = errorBaseline(connection);
        const timeout = group.cold ? this.settings.coldTimeoutMs : this.settings.warmTimeoutMs;
        const answers = await this.diagnosticsOfFiles(connection, group.files, timeout, call.signal);
        results.push(...answers);
        others.push(...newlyFailing(connection, baseline, new Set(group.files)));
      }),
    );
    if (results.length === 0) return undefined;
    return formatAfterEdit(results, others, (file) => shownName(file, call.workspace));
  }

  /** Every file synced first (the server sees the whole edit), then each one's diagnostics. */
  private async diagnosticsOfFiles(
    connection: ServerConnection,
    files: readonly string[],
    timeoutMs: number,
    signal: AbortSignal,
  ): Promise<FileDiagnostics[]> {
    const synced: Array<SyncedFile | FileDiagnostics> = [];
    for (const file of files) {
      synced.push(
        await syncFile(connection, file, this.languageOf(file) ?? '').catch(
          (): FileDiagnostics => ({ file, unavailable: connection.alive ? 'timeout' : 'crashed' }),
        ),
      );
    }
    return Promise.all(
      synced.map((s) =>
        'uri' in s
          ? diagnosticsOfSynced(connection, s, timeoutMs, signal).catch(
              (): FileDiagnostics => ({
                file: s.file,
                unavailable: connection.alive ? 'timeout' : 'crashed',
              }),
            )
          : s,
      ),
    );
  }

  async diagnosticsReport(
    file: string | undefined,
    call: { signal: AbortSignal; workspace: string },
  ): Promise<string> {
    const show = (f: string) => shownName(f, call.workspace);
    if (file !== undefined) {
      const found = await this.connectionFor(file, call.workspace);
      if ('unavailable' in found) return `unavailable: ${found.unavailable}`;
      const timeout = found.cold ? this.settings.coldTimeoutMs : this.settings.warmTimeoutMs;
      const result = await diagnosticsNow(found.connection, file, found.language, timeout, call.signal);
      if ('unavailable' in result) return `diagnostics of ${show(file)}: unavailable (${result.unavailable})`;
      return listDiagnostics([result], show) || `${show(file)}: no diagnostics`;
    }
    const results: FileDiagnostics[] = [];
    for (const entry of this.entries.values()) {
      const connection = entry.connection;
      if (!connection?.alive) continue;
      const files = [...connection.documents.keys()].map(uriPath);
      results.push(
        ...(await this.diagnosticsOfFiles(connection, files, this.settings.warmTimeoutMs, call.signal)),
      );
    }
    const published = results.filter((r): r is { file: string; items: Diagnostic[] } => 'items' in r);
    if (results.length === 0) return 'No file is open with a language server yet. Give path to check a file.';
    return listDiagnostics(published, show) || 'No diagnostics in the files the servers have checked.';
  }

  /** Each server of the table: found or not, its command and version, and what runs now. */
  status(): ServerStatus[] {
    return this.table.map((spec) => {
      const running = [...this.entries.values()].filter((e) => e.spec.name === spec.name);
      const states = running.map((e) => {
        if (e.state === 'crashed') return `crashed (${e.lastCrash?.reason})`;
        return `${e.connection?.alive ? 'running' : e.state === 'restarting' ? 'restarting' : 'stopped'} in ${e.root}`;
      });
      return {
        name: spec.name,
        languages: spec.languages,
        found: spec.command !== undefined,
        ...(spec.command ? { command: [spec.command, ...spec.args].join(' ') } : {}),
        ...(spec.version ? { version: spec.version } : {}),
        state: spec.command ? states.join('; ') || 'not started' : 'unavailable',
        ...(spec.missing ? { problem: spec.missing } : {}),
      };
    });
  }

  /** The process ids of the servers running now. */
  serverPids(): number[] {
    return [...this.entries.values()].flatMap((e) =>
      e.connection?.alive && e.connection.pid ? [e.connection.pid] : [],
    );
  }

  /** Shuts every server down (their whole process groups); later requests are refused. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const entries = [...this.entries.values()];
    for (const entry of entries) if (entry.idle) clearTimeout(entry.idle);
    await Promise.all(entries.map((entry) => entry.starting?.catch(() => undefined)));
    await Promise.all(entries.map((entry) => entry.connection?.stop()));
    this.entries.clear();
    process.off('exit', this.killAll);
    this.exitHooked = false;
  }
}

/** The nearest folder above `file` holding a root marker; else the workspace (or the file's folder outside it). */
function projectRoot(file: string, markers: readonly string[], workspace: string): string {
  return (
    markedRoot(file, markers, workspace) ?? (isInsideFolder(file, workspace) ? workspace : dirname(file))
  );
}

/** The nearest folder above `file` holding a root marker, looking no higher than the workspace when the file is in it. */
function markedRoot(file: string, markers: readonly string[], workspace: string): string | undefined {
  const inside = isInsideFolder(file, workspace);
  let dir = dirname(file);
  for (;;) {
    if (markers.some((marker) => existsSync(join(dir, marker)))) return dir;
    const up = dirname(dir);
    if ((inside && dir === workspace) || up === dir) return undefined;
    dir = up;
  }
}

function isInsideFolder(file: string, folder: string): boolean {
  return pathInside(file, folder) !== undefined;
}

/** A path as results show it: relative to the workspace when inside it. */
export function shownName(file: string, workspace: string): string {
  return pathInside(file, workspace) ?? file;
}
