import { statSync } from 'node:fs';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { DEFAULT_LSP_SETTINGS, type LspSettings } from '../config/lsp_settings.js';
import type {
  EditDiagnostics,
  LanguageServerAccess,
  LanguageServerHandle,
  LanguageServerUnavailable,
} from '../tool/context/language_servers.js';
import {
  diagnosticsOfEdit,
  diagnosticsOfFiles,
  MAX_IMPORTERS,
  moduleName,
  type WordSearch,
} from './after_edit.js';
import {
  diagnosticsNow,
  type FileDiagnostics,
  formatAfterEdit,
  listDiagnostics,
  uriPath,
} from './diagnostics.js';
import { probeAll } from './probe.js';
import { markedRoot, shownName } from './project_root.js';
import type { ServerConnection } from './server_connection.js';
import { type Entry, ServerPool } from './server_pool.js';
import { type ServerSpec, serverTable } from './server_table.js';
import { askingFor, CHECKING_DIAGNOSTICS, type WaitReport } from './waits.js';

export { shownName } from './project_root.js';

/** Edited files whose diagnostics one result lists at most. */
const MAX_EDITED_FILES = 20;

export interface LanguageServersOptions {
  /** Settings `lsp` (the table and the diagnostics after edits). */
  settings?: LspSettings;
  /** PATH to find servers on (default the process's). */
  path?: string;
  /** Added to every server's environment. */
  env?: Record<string, string>;
  /** Finds the files that import an edited one (their diagnostics join the edit's); absent: none are looked for. */
  wordSearch?: WordSearch;
  idleMs?: number;
  initTimeoutMs?: number;
  requestTimeoutMs?: number;
}

/** One row of `lathe lsp status`. */
export interface ServerStatus {
  name: string;
  languages: string[];
  /** It starts: bundled with lathe, or its program answered a probe. */
  found: boolean;
  source: ServerSpec['source'];
  command?: string;
  version?: string;
  /** `not started`, or each root's state: `running (src/app)`, `crashed: …`. */
  state: string;
  problem?: string;
  /** How to install it, when it is not found. */
  install?: string;
}

/** The work's value if it settles within `ms`, else a mark that it did not. */
function within<T>(work: Promise<T>, ms: number): Promise<{ value: T } | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([work.then((value) => ({ value })), late]).finally(() => clearTimeout(timer));
}

/**
 * The language servers of a process: one per (project root, server), started on the first
 * request for a file of its language (or, for the servers a workspace's root markers call for,
 * once a session's first request is out), shared by every runtime and child agent, shut down
 * when idle, restarted with backoff after a crash (3 times, then `unavailable: crashed`). The
 * table is complete when this is made, before any request.
 */
export class LanguageServers implements LanguageServerAccess {
  readonly settings: LspSettings;
  private readonly pool: ServerPool;

  constructor(private readonly options: LanguageServersOptions = {}) {
    this.settings = options.settings ?? DEFAULT_LSP_SETTINGS;
    this.pool = new ServerPool(serverTable(this.settings.servers, options.path ?? process.env.PATH), options);
  }

  get table(): readonly ServerSpec[] {
    return this.pool.table;
  }

  languageOf(file: string): string | undefined {
    return this.pool.languageOf(file);
  }

  /** The table entry serving a language (a found one first). */
  specFor(language: string): ServerSpec | undefined {
    return this.pool.specFor(language);
  }

  /**
   * Starts, in the background, the servers the workspace's own root markers call for
   * (`tsconfig.json` or `package.json`: TypeScript; `pyproject.toml`: pyright; …), so an edit
   * finds them warm. Only with diagnostics after edits on: they are what needs a server early.
   */
  startForWorkspace(workspace: string): void {
    if (this.settings.diagnosticsAfterEdit) this.pool.startMarked(workspace);
  }

  /** Whether any server can be started (the tools that need one are offered). */
  get available(): boolean {
    return this.table.some((s) => s.command !== undefined);
  }

  async serverFor(
    file: string,
    options: { workspace: string; signal?: AbortSignal; progress?: WaitReport },
  ): Promise<LanguageServerHandle | LanguageServerUnavailable> {
    const found = await this.pool.connectionFor(file, options.workspace, options.progress);
    if ('unavailable' in found) return { unavailable: found.unavailable, language: found.language };
    const { entry, connection, language } = found;
    return {
      name: entry.spec.name,
      language,
      root: entry.root,
      capabilities: connection.capabilities,
      serves: (path) => entry.spec.languages.includes(this.languageOf(path) ?? ''),
      sync: async (path) => {
        this.pool.touch(entry);
        const synced = await connection.sync(path, this.languageOf(path) ?? language);
        return { uri: synced.uri, text: synced.text };
      },
      request: <R>(method: string, params: unknown, signal?: AbortSignal) => {
        this.pool.touch(entry);
        options.progress?.(askingFor(entry.spec, method));
        return connection.request<R>(method, params, signal ?? options.signal);
      },
    };
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
    call: {
      since: number;
      signal: AbortSignal;
      workspace: string;
      deliverLater?: boolean;
      progress?: WaitReport;
    },
  ): Promise<EditDiagnostics | undefined> {
    if (!this.settings.diagnosticsAfterEdit || this.pool.disposed) return undefined;
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
    if (!call.deliverLater) {
      const line = await this.afterEdit(edited, call.workspace, call.signal, call.progress);
      return line === undefined ? undefined : { line };
    }
    // The work goes on after the call has ended: it is not the call's to cancel.
    const answersNow = edited.every((file) => this.pool.answersNow(file, call.workspace));
    const work = this.afterEdit(edited, call.workspace).catch(
      (error: Error) => `diagnostics: unavailable (${error.message})`,
    );
    if (answersNow) {
      call.progress?.(CHECKING_DIAGNOSTICS);
      const quick = await within(work, this.settings.editWaitMs);
      if (quick) return quick.value === undefined ? undefined : { line: quick.value };
    }
    const names = edited.map((file) => shownName(file, call.workspace)).join(', ');
    return {
      line: 'diagnostics: pending (the language server is still working; they follow with a later result)',
      later: work.then(
        (line) => `Diagnostics of ${names}, pending after its edit:\n${line ?? 'diagnostics: unavailable'}`,
      ),
    };
  }

  /** The diagnostics line of an edit's files, each server asked at once; undefined when none has a word. */
  private async afterEdit(
    edited: readonly string[],
    workspace: string,
    signal?: AbortSignal,
    progress?: WaitReport,
  ): Promise<string | undefined> {
    const results: FileDiagnostics[] = [];
    const groups = new Map<ServerConnection, { files: string[]; cold: boolean }>();
    for (const file of edited) {
      const found = await this.pool.serverOfEdit(file, workspace, progress);
      if (!('unavailable' in found)) {
        const group = groups.get(found.connection) ?? { files: [], cold: found.cold };
        group.files.push(file);
        groups.set(found.connection, group);
        continue;
      }
      const why = this.unusableOnce(found);
      if (why) results.push({ file, unavailable: why });
    }
    const others: Array<{ file: string; items: Diagnostic[] }> = [];
    if (groups.size > 0) progress?.(CHECKING_DIAGNOSTICS);
    await Promise.all(
      [...groups].map(async ([connection, group]) => {
        const importers = await this.importersOf(group.files, connection, workspace, signal);
        const timeout = group.cold ? this.settings.coldTimeoutMs : this.settings.warmTimeoutMs;
        const languageOf = (file: string) => this.languageOf(file);
        const found = await diagnosticsOfEdit(
          connection,
          group.files,
          importers,
          languageOf,
          timeout,
          signal,
        );
        results.push(...found.results);
        others.push(...found.others);
      }),
    );
    if (results.length === 0) return undefined;
    return formatAfterEdit(results, others, (file) => shownName(file, workspace));
  }

  /**
   * Why a file's server cannot give diagnostics, said once per server (it crashed for good, or
   * it does not start); a language with no server found says nothing.
   */
  private unusableOnce(found: LanguageServerUnavailable & { entry?: Entry }): string | undefined {
    const { entry } = found;
    if (!entry) return found.language && this.specFor(found.language)?.command ? 'no server' : undefined;
    if (entry.failureSaid) return undefined;
    entry.failureSaid = true;
    return entry.state === 'crashed' ? 'crashed' : found.unavailable;
  }

  /** Files of the server's languages that name an edited file's module as a whole word: likely importers. */
  private async importersOf(
    edited: readonly string[],
    connection: ServerConnection,
    workspace: string,
    signal?: AbortSignal,
  ): Promise<string[]> {
    const search = this.options.wordSearch;
    if (!search) return [];
    const languages = this.table.find((s) => s.name === connection.name)?.languages ?? [];
    const names = [...new Set(edited.map(moduleName))].filter((name) => name.length > 0);
    const found = new Set<string>();
    for (const name of names) {
      const files = await search(name, workspace, signal).catch(() => []);
      for (const file of files) found.add(file);
    }
    return [...found]
      .filter((file) => !edited.includes(file) && languages.includes(this.languageOf(file) ?? ''))
      .slice(0, MAX_IMPORTERS);
  }

  async diagnosticsReport(
    file: string | undefined,
    call: { signal: AbortSignal; workspace: string; progress?: WaitReport },
  ): Promise<string> {
    const show = (f: string) => shownName(f, call.workspace);
    if (file !== undefined) {
      const found = await this.pool.connectionFor(file, call.workspace, call.progress);
      if ('unavailable' in found) return `unavailable: ${found.unavailable}`;
      call.progress?.(CHECKING_DIAGNOSTICS);
      const timeout = found.cold ? this.settings.coldTimeoutMs : this.settings.warmTimeoutMs;
      const result = await diagnosticsNow(found.connection, file, found.language, timeout, call.signal);
      if ('unavailable' in result) return `diagnostics of ${show(file)}: unavailable (${result.unavailable})`;
      return listDiagnostics([result], show) || `${show(file)}: no diagnostics`;
    }
    const results: FileDiagnostics[] = [];
    call.progress?.(CHECKING_DIAGNOSTICS);
    for (const entry of this.pool.all) {
      const connection = entry.connection;
      if (!connection?.alive) continue;
      const files = [...connection.documents.keys()].map(uriPath);
      const languageOf = (f: string) => this.languageOf(f);
      results.push(
        ...(await diagnosticsOfFiles(
          connection,
          files,
          languageOf,
          this.settings.warmTimeoutMs,
          call.signal,
        )),
      );
    }
    const published = results.filter((r): r is Extract<FileDiagnostics, { items: unknown }> => 'items' in r);
    if (results.length === 0) return 'No file is open with a language server yet. Give path to check a file.';
    return listDiagnostics(published, show) || 'No diagnostics in the files the servers have checked.';
  }

  /** Each server of the table: found or not, its command and version, and what runs now. */
  status(): ServerStatus[] {
    return this.table.map((spec) => {
      const running = this.pool.all.filter((e) => e.spec.name === spec.name);
      const states = running.map((e) => {
        if (e.state === 'crashed') return `crashed (${e.lastCrash?.reason})`;
        return `${e.connection?.alive ? 'running' : e.state === 'restarting' ? 'restarting' : 'stopped'} in ${e.root}`;
      });
      return {
        name: spec.name,
        languages: spec.languages,
        found: spec.command !== undefined,
        source: spec.source,
        ...(spec.command ? { command: [spec.command, ...spec.args].join(' ') } : {}),
        ...(spec.version ? { version: spec.version } : {}),
        state: spec.command ? states.join('; ') || 'not started' : 'unavailable',
        ...(spec.missing ? { problem: spec.missing } : {}),
        ...(spec.install && !spec.command ? { install: spec.install } : {}),
      };
    });
  }

  /**
   * The status of each server with its program probed: a server counts as found when it
   * starts, not when a file of its name is on PATH (see `probeServer`).
   */
  async probedStatus(): Promise<ServerStatus[]> {
    const specs = this.table;
    const probes = await probeAll(specs);
    return this.status().map((row, i) => {
      const probe = probes[i];
      if (probe.runs) return { ...row, ...(probe.version ? { version: probe.version } : {}) };
      return {
        ...row,
        found: false,
        state: 'unavailable',
        ...(probe.problem ? { problem: probe.problem } : {}),
        ...(specs[i].install ? { install: specs[i].install } : {}),
      };
    });
  }

  /** Resolves once no server is starting (started, or failed to). */
  settled(): Promise<void> {
    return this.pool.settled();
  }

  /** Ends every server at once; later requests are refused. */
  dispose(): Promise<void> {
    return this.pool.dispose();
  }

  /** The process ids of the servers running now. */
  serverPids(): number[] {
    return this.pool.all.flatMap((e) => (e.connection?.alive && e.connection.pid ? [e.connection.pid] : []));
  }
}
