import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import type {
  Diagnostic,
  ProtocolConnection,
  PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol';
import { decodeText } from '../edit/codec.js';
import { clientCapabilities } from './capabilities.js';
import type { ServerSpec } from './server_table.js';

/** How many documents one server keeps open; the least recently used beyond it are closed. */
const MAX_OPEN_DOCUMENTS = 100;
/** stderr kept to explain a server that exits at start. */
const STDERR_TAIL = 2000;

export interface ConnectionOptions {
  spec: ServerSpec & { command: string };
  root: string;
  /** Variables added to the server's environment (the marker tests find stray processes by). */
  env?: Record<string, string>;
  initTimeoutMs: number;
  requestTimeoutMs: number;
  /** Called once when the process ends without `stop()`: a crash. */
  onCrash(reason: string): void;
  /** Aborted: a server still starting is ended at once (lathe is shutting its servers down). */
  signal?: AbortSignal;
}

interface OpenDocument {
  version: number;
  text: string;
  languageId: string;
}

/** The latest diagnostics a server published for one document (replaced, never accumulated). */
export interface PublishedDiagnostics {
  version?: number;
  items: Diagnostic[];
  /** Order of arrival over all documents, to tell a publish after a change from one before. */
  seq: number;
}

/** Raised for a request the server could not answer: it crashed, timed out or refused. */
export class LanguageServerError extends Error {}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/**
 * One language server process and its JSON-RPC connection: started in its own process group
 * (so its helpers end with it), initialized for one root, told of every document lathe reads or
 * edits, and remembering only the latest diagnostics of each document.
 */
export class ServerConnection {
  readonly capabilities: Record<string, unknown> = {};
  readonly documents = new Map<string, OpenDocument>();
  readonly diagnostics = new Map<string, PublishedDiagnostics>();
  serverVersion: string | undefined;
  /** Whether the server has given diagnostics once: later waits use the warm timeout. */
  warm = false;
  /** Errors lathe last saw in each document (asked or published), to tell which files gained errors. */
  readonly errorsSeen = new Map<string, number>();
  /** Syncs of a document in flight: one at a time, so a document is opened once. */
  private readonly syncing = new Map<string, Promise<unknown>>();
  private seq = 0;
  private readonly waiters = new Set<() => void>();
  private stopping = false;
  private exited = false;
  private exitReason = '';
  private readonly exitListeners = new Set<(reason: string) => void>();

  private constructor(
    private readonly options: ConnectionOptions,
    private readonly child: ChildProcess,
    readonly connection: ProtocolConnection,
  ) {}

  get pid(): number | undefined {
    return this.child.pid;
  }

  get name(): string {
    return this.options.spec.name;
  }

  get diagnosticsMode(): ServerSpec['diagnostics'] {
    return this.options.spec.diagnostics;
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** Starts the server and completes the initialize handshake, or throws saying why it could not. */
  static async start(options: ConnectionOptions): Promise<ServerConnection> {
    const loaded = await import('vscode-languageserver-protocol/node');
    // Bundled, the CommonJS package's exports sit under `default`.
    const rpc =
      'StreamMessageReader' in loaded ? loaded : (loaded as unknown as { default: typeof loaded }).default;
    const { spec, root } = options;
    if (options.signal?.aborted) throw new LanguageServerError('language servers are shut down');
    const child = spawn(spec.command, spec.args, {
      cwd: root,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
      env: { ...process.env, ...options.env },
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    // A write to a server that has gone is reported by the exit, not as an unhandled error.
    child.stdin?.on('error', () => undefined);
    let server: ServerConnection;
    try {
      const connection = rpc.createProtocolConnection(
        new rpc.StreamMessageReader(child.stdout!),
        new rpc.StreamMessageWriter(child.stdin!),
      );
      server = new ServerConnection(options, child, connection);
      server.listen(rpc, () => stderr);
      connection.listen();
    } catch (error) {
      if (child.pid !== undefined) killGroup(child.pid);
      throw new LanguageServerError(
        `the ${spec.name} language server could not be connected: ${(error as Error).message}`,
      );
    }
    const connection = server.connection;
    const abort = () => server.kill();
    options.signal?.addEventListener('abort', abort, { once: true });
    try {
      const result = await server.withTimeout(
        connection.sendRequest(rpc.InitializeRequest.type, {
          processId: process.pid,
          rootUri: pathToFileURL(root).href,
          workspaceFolders: [{ uri: pathToFileURL(root).href, name: root.split('/').pop() || root }],
          capabilities: clientCapabilities,
          initializationOptions: spec.initializationOptions ?? null,
        }),
        options.initTimeoutMs,
        'initialize',
      );
      Object.assign(server.capabilities, result.capabilities);
      const info = result.serverInfo;
      server.serverVersion = [info?.name, info?.version].filter(Boolean).join(' ') || undefined;
      await connection.sendNotification(rpc.InitializedNotification.type, {});
      return server;
    } catch (error) {
      server.kill();
      throw new LanguageServerError(
        `the ${spec.name} language server did not start: ${(error as Error).message}`,
      );
    } finally {
      options.signal?.removeEventListener('abort', abort);
    }
  }

  private listen(rpc: typeof import('vscode-languageserver-protocol/node'), stderr: () => string): void {
    const { connection, child } = this;
    connection.onNotification(rpc.PublishDiagnosticsNotification.type, (params: PublishDiagnosticsParams) => {
      this.diagnostics.set(params.uri, {
        ...(params.version !== undefined && params.version !== null ? { version: params.version } : {}),
        items: params.diagnostics,
        seq: ++this.seq,
      });
      this.errorsSeen.set(params.uri, params.diagnostics.filter((d) => (d.severity ?? 1) === 1).length);
      for (const wake of this.waiters) wake();
    });
    // Requests a server may make of its client: answered so it never waits on lathe.
    connection.onRequest('workspace/configuration', (params: { items?: unknown[] }) =>
      (params.items ?? []).map(() => null),
    );
    connection.onRequest('workspace/workspaceFolders', () => [
      { uri: pathToFileURL(this.options.root).href, name: this.options.root },
    ]);
    connection.onRequest('window/workDoneProgress/create', () => null);
    // Capabilities registered later count as given at start (pyright registers its pull diagnostics).
    connection.onRequest(
      'client/registerCapability',
      (params: { registrations?: Array<{ method: string; registerOptions?: unknown }> }) => {
        for (const r of params.registrations ?? []) {
          if (r.method === 'textDocument/diagnostic')
            this.capabilities.diagnosticProvider = r.registerOptions ?? {};
        }
        return null;
      },
    );
    connection.onRequest('client/unregisterCapability', () => null);
    connection.onRequest('workspace/applyEdit', () => ({
      applied: false,
      failureReason: 'lathe applies edits itself',
    }));
    connection.onError(([error]) =>
      this.fail(`it sent data that is not the Language Server Protocol (${error.message})`),
    );
    child.on('error', (error) => this.fail(`it could not be run (${error.message})`));
    child.on('exit', (code, signal) => {
      const tail = stderr().trim().split('\n').slice(-3).join(' | ');
      const how = signal ? `killed by ${signal}` : `exit code ${code}`;
      this.fail(`it exited (${how})${tail ? `: ${tail}` : ''}`);
    });
  }

  /** The server is gone or unusable: every pending wait ends at once with the reason. */
  private fail(reason: string): void {
    if (this.exited) return;
    this.exited = true;
    // One line: a server's stderr or garbage must not break the result into pieces.
    this.exitReason = reason.replace(/\s+/g, ' ').slice(0, 300);
    this.connection.dispose();
    this.kill();
    for (const listener of this.exitListeners) listener(this.exitReason);
    for (const wake of this.waiters) wake();
    if (!this.stopping) this.options.onCrash(this.exitReason);
  }

  /** Resolves with `promise`, or rejects when the server exits first or time runs out. */
  private withTimeout<T>(promise: Promise<T>, ms: number, what: string, signal?: AbortSignal): Promise<T> {
    if (this.exited) return Promise.reject(new LanguageServerError(this.exitReason));
    return new Promise<T>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.exitListeners.delete(onExit);
        signal?.removeEventListener('abort', onAbort);
      };
      const onExit = (reason: string) => {
        done();
        reject(
          new LanguageServerError(
            `the ${this.name} language server stopped while answering ${what}: ${reason}`,
          ),
        );
      };
      const onAbort = () => {
        done();
        reject(new LanguageServerError(`${what} was cancelled`));
      };
      const timer = setTimeout(() => {
        done();
        reject(
          new LanguageServerError(
            `the ${this.name} language server did not answer ${what} within ${seconds(ms)}`,
          ),
        );
      }, ms);
      this.exitListeners.add(onExit);
      signal?.addEventListener('abort', onAbort, { once: true });
      promise.then(
        (value) => {
          done();
          resolve(value);
        },
        (error: Error) => {
          done();
          reject(new LanguageServerError(error.message));
        },
      );
    });
  }

  request<R>(method: string, params: unknown, signal?: AbortSignal): Promise<R> {
    if (this.exited) return Promise.reject(new LanguageServerError(this.exitReason));
    return this.withTimeout(
      this.connection.sendRequest<R>(method, params),
      this.options.requestTimeoutMs,
      method,
      signal,
    );
  }

  /**
   * Makes the server see `file` as it is on disk: opened at version 1, or changed (full text) to
   * a new version when it differs from what the server has.
   */
  sync(
    file: string,
    languageId: string,
  ): Promise<{ uri: string; text: string; version: number; changed: boolean }> {
    const uri = pathToFileURL(file).href;
    const before = this.syncing.get(uri) ?? Promise.resolve();
    const next = before.catch(() => undefined).then(() => this.syncNow(file, uri, languageId));
    this.syncing.set(uri, next);
    void next
      .finally(() => {
        if (this.syncing.get(uri) === next) this.syncing.delete(uri);
      })
      .catch(() => undefined);
    return next;
  }

  private async syncNow(
    file: string,
    uri: string,
    languageId: string,
  ): Promise<{ uri: string; text: string; version: number; changed: boolean }> {
    const decoded = decodeText(await readFile(file));
    if (!decoded.ok) throw new LanguageServerError(`${file} is not a text file: ${decoded.error}`);
    const { text } = decoded;
    const open = this.documents.get(uri);
    if (open && open.text === text) {
      // Most recently used last.
      this.documents.delete(uri);
      this.documents.set(uri, open);
      return { uri, text, version: open.version, changed: false };
    }
    if (open) {
      const version = open.version + 1;
      this.documents.delete(uri);
      this.documents.set(uri, { ...open, version, text });
      await this.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version },
        contentChanges: [{ text }],
      });
      return { uri, text, version, changed: true };
    }
    this.documents.set(uri, { version: 1, text, languageId });
    await this.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId, version: 1, text },
    });
    await this.closeLeastUsed();
    return { uri, text, version: 1, changed: true };
  }

  private async closeLeastUsed(): Promise<void> {
    while (this.documents.size > MAX_OPEN_DOCUMENTS) {
      const [uri] = this.documents.keys();
      this.documents.delete(uri);
      await this.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
    }
  }

  /** Publish order so far: a publish with a later `seq` came after this moment. */
  get publishSeq(): number {
    return this.seq;
  }

  /**
   * Waits until `ready()` holds after a publish (or at once), the server exits, time runs out
   * or the signal aborts; resolves with whether it held.
   */
  waitForPublish(ready: () => boolean, ms: number, signal?: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      const finish = (value: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        signal?.removeEventListener('abort', onAbort);
        resolve(value);
      };
      const check = () => {
        if (ready()) finish(true);
        else if (this.exited) finish(false);
      };
      const onAbort = () => finish(false);
      const timer = setTimeout(() => finish(ready()), ms);
      this.waiters.add(check);
      signal?.addEventListener('abort', onAbort, { once: true });
      check();
    });
  }

  /** Asks the server to shut down, then ends its process group whatever it answered. */
  async stop(): Promise<void> {
    if (this.exited) return;
    this.stopping = true;
    const gone = new Promise<void>((resolve) => this.exitListeners.add(() => resolve()));
    try {
      await this.withTimeout(this.connection.sendRequest('shutdown'), 1000, 'shutdown');
      await this.connection.sendNotification('exit');
    } catch {
      // It is ended below either way.
    }
    const timer = setTimeout(() => this.kill(), 500);
    await gone;
    clearTimeout(timer);
  }

  /** Ends the server's process group at once and resolves once it has exited. */
  end(): Promise<void> {
    if (this.exited) return Promise.resolve();
    this.stopping = true;
    const gone = new Promise<void>((resolve) => this.exitListeners.add(() => resolve()));
    this.kill();
    return gone;
  }

  /** Ends the server and every process it started (its process group), at once. */
  kill(): void {
    if (this.child.pid !== undefined) killGroup(this.child.pid);
  }
}

/** Ends a process group at once (the server and every helper it started). */
function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
