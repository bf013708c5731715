import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { LanguageServerUnavailable } from '../tool/context/language_servers.js';
import { languageOfPath } from './languages.js';
import { projectRoot, shownName } from './project_root.js';
import { ServerConnection } from './server_connection.js';
import type { ServerSpec } from './server_table.js';
import { startingText, type WaitReport } from './waits.js';

/** A server unused this long is shut down; the next request starts it again. */
const IDLE_MS = 5 * 60_000;
/** Restarts after crashes before a server is given up on (`unavailable: crashed`). */
const MAX_RESTARTS = 3;

export interface PoolOptions {
  /** Added to every server's environment. */
  env?: Record<string, string>;
  idleMs?: number;
  initTimeoutMs?: number;
  requestTimeoutMs?: number;
}

type State = 'starting' | 'running' | 'restarting' | 'crashed';

/** One server of the table in one project root, and what became of it. */
export interface Entry {
  spec: ServerSpec & { command: string };
  root: string;
  state: State;
  connection?: ServerConnection;
  starting?: Promise<ServerConnection>;
  crashes: number;
  lastCrash?: { at: number; reason: string };
  /** Why the last start failed, until one succeeds. */
  startFailure?: string;
  /** Whether an edit's result has said the server is unusable (it says so once). */
  failureSaid?: boolean;
  idle?: NodeJS.Timeout;
}

/** A file's running server, or why it has none (with the server's entry when it has one). */
export type Found =
  | { entry: Entry; connection: ServerConnection; language: string; cold: boolean }
  | (LanguageServerUnavailable & { entry?: Entry });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

/**
 * The servers of a process by (server, project root): started when asked for, shut down when
 * idle, restarted with backoff after a crash (3 times, then `crashed` for good), all ended at
 * once by `dispose`.
 */
export class ServerPool {
  private readonly entries = new Map<string, Entry>();
  private readonly extensions: Record<string, string>;
  private readonly shutdown = new AbortController();
  private exitHooked = false;
  private readonly killAll = () => {
    for (const entry of this.entries.values()) entry.connection?.kill();
  };

  constructor(
    readonly table: readonly ServerSpec[],
    private readonly options: PoolOptions = {},
  ) {
    this.extensions = Object.assign({}, ...table.map((s) => s.extensions));
  }

  get disposed(): boolean {
    return this.shutdown.signal.aborted;
  }

  /** Every server made so far, in every root. */
  get all(): Entry[] {
    return [...this.entries.values()];
  }

  languageOf(file: string): string | undefined {
    return languageOfPath(file, this.extensions);
  }

  /** The table entry serving a language (a found one first). */
  specFor(language: string): ServerSpec | undefined {
    const serving = this.table.filter((s) => s.languages.includes(language));
    return serving.find((s) => s.command !== undefined) ?? serving[0];
  }

  /** Starts, in the background, the servers whose root markers the folder itself holds. */
  startMarked(folder: string): void {
    if (this.disposed) return;
    for (const spec of this.table) {
      if (!spec.command || spec.rootMarkers.length === 0) continue;
      if (!spec.languages.some((language) => this.specFor(language) === spec)) continue;
      if (!spec.rootMarkers.some((marker) => existsSync(join(folder, marker)))) continue;
      const entry = this.entryFor(spec as Entry['spec'], folder);
      if (entry.connection?.alive || entry.starting || entry.state === 'crashed') continue;
      void this.ensureStarted(entry).then(
        () => this.touch(entry),
        () => undefined,
      );
    }
  }

  /** The server a file's language and project call for, made if need be (not started). */
  private entryFor(spec: Entry['spec'], root: string): Entry {
    const key = `${spec.name}\0${root}`;
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { spec, root, state: 'starting', crashes: 0 };
      this.entries.set(key, entry);
    }
    return entry;
  }

  /** The entry of a file's server, or why it has none (no server of its language, shut down). */
  entryOfFile(
    file: string,
    workspace: string,
  ): { entry: Entry; language: string } | LanguageServerUnavailable {
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
    return { entry: this.entryFor(spec as Entry['spec'], root), language };
  }

  /** The running connection for a file's server, started (or restarted) if need be; `progress` hears a start. */
  async connectionFor(file: string, workspace: string, progress?: WaitReport): Promise<Found> {
    const of = this.entryOfFile(file, workspace);
    if ('unavailable' in of) return of;
    const { entry, language } = of;
    if (entry.state === 'crashed')
      return {
        unavailable: `crashed (${entry.spec.name}: ${entry.lastCrash?.reason ?? 'it kept exiting'})`,
        language,
        entry,
      };
    const cold = !entry.connection?.alive || !entry.connection.warm;
    const starting = startingText(entry);
    if (starting) progress?.(starting);
    try {
      const connection = await this.ensureStarted(entry);
      this.touch(entry);
      return { entry, connection, language, cold };
    } catch (error) {
      return { unavailable: (error as Error).message, language, entry };
    }
  }

  /**
   * Whether the server of a file answers an edit at once: it is up and has given diagnostics
   * before, or it has none to give (no server, crashed for good, its start failed).
   */
  answersNow(file: string, workspace: string): boolean {
    const of = this.entryOfFile(file, workspace);
    if ('unavailable' in of) return true;
    const { connection } = of.entry;
    if (connection?.alive) return connection.warm;
    return of.entry.state === 'crashed' || failedToStart(of.entry);
  }

  /** A file's server for diagnostics: not started again when its last start failed. */
  async serverOfEdit(file: string, workspace: string, progress?: WaitReport): Promise<Found> {
    const of = this.entryOfFile(file, workspace);
    if ('entry' in of && failedToStart(of.entry))
      return {
        unavailable: of.entry.startFailure ?? 'it did not start',
        language: of.language,
        entry: of.entry,
      };
    return this.connectionFor(file, workspace, progress);
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
      signal: this.shutdown.signal,
    }).catch((error: Error) => {
      entry.startFailure = error.message;
      this.crashed(entry, error.message);
      throw error;
    });
    if (this.disposed) {
      connection.kill();
      throw new Error('language servers are shut down');
    }
    entry.connection = connection;
    entry.state = 'running';
    entry.startFailure = undefined;
    entry.failureSaid = false;
    return connection;
  }

  private crashed(entry: Entry, reason: string): void {
    if (entry.idle) clearTimeout(entry.idle);
    entry.crashes++;
    entry.lastCrash = { at: Date.now(), reason };
    entry.state = entry.crashes > MAX_RESTARTS ? 'crashed' : 'restarting';
  }

  /** A use keeps the server up for another idle period. */
  touch(entry: Entry): void {
    if (entry.idle) clearTimeout(entry.idle);
    entry.idle = setTimeout(() => {
      const connection = entry.connection;
      entry.connection = undefined;
      entry.state = 'starting';
      void connection?.stop();
    }, this.options.idleMs ?? IDLE_MS);
    entry.idle.unref();
  }

  /** Resolves once no server is starting. */
  async settled(): Promise<void> {
    await Promise.all(this.all.map((entry) => entry.starting?.catch(() => undefined)));
  }

  /**
   * Ends every server at once (their whole process groups; one still starting too): they hold
   * nothing to save, and lathe's exit does not wait on their shutdown. Later requests are refused.
   */
  async dispose(): Promise<void> {
    this.shutdown.abort();
    const entries = this.all;
    for (const entry of entries) if (entry.idle) clearTimeout(entry.idle);
    await Promise.all(entries.map((entry) => entry.starting?.catch(() => undefined)));
    await Promise.all(entries.map((entry) => entry.connection?.end()));
    this.entries.clear();
    process.off('exit', this.killAll);
    this.exitHooked = false;
  }
}

/** A server whose last start failed and that is not being started again. */
function failedToStart(entry: Entry): boolean {
  return entry.startFailure !== undefined && !entry.connection?.alive && !entry.starting;
}
