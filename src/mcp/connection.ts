import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ToolOutput } from '../tool/types.js';
import { isNeedsLogin } from './auth/errors.js';
import type { McpServerConfig } from './config.js';
import { answerElicitations, ELICITATION_CAPABILITY, type Elicit } from './elicitation.js';
import { classifyFailure, describeFailure } from './failures.js';
import { lastLine, withDeadline, withOwnSignal } from './request_bounds.js';
import { mapCallResult, mapResourceContents } from './results.js';
import { type RootPlaces, resolveRoots } from './roots.js';
import {
  emptyLists,
  fetchList,
  fetchLists,
  type ListKind,
  type ServerLists,
  watchLists,
} from './server_lists.js';
import { ServerLog } from './server_log.js';
import { closeTransport, type OpenedTransport, openTransport } from './transport.js';

export type { RemotePrompt, RemoteResource, RemoteTool } from './server_lists.js';

/** A prompt's messages as its server gives them, or why it could not be had. */
export interface PromptMessage {
  role: 'user' | 'assistant';
  content: { type: string; text?: string; [key: string]: unknown };
}
export type PromptMessages = { messages: PromptMessage[] } | { error: string };

export type ConnectionState = 'idle' | 'connecting' | 'connected' | 'failed' | 'disabled' | 'closed';

export interface ConnectionEvents {
  /** A list (tools, prompts, resources) or the state changed (the pool follows). */
  onChange(): void;
  /** A one-line report for the user: a failure, a crash, a restart. */
  onReport?(message: string): void;
}

export interface ConnectionOptions {
  /** The folder a server's `roots: "workspace"` stands for. */
  workspace?: string;
  /** The `--add-dir` folders, which a server's `roots: ["added"]` stands for. */
  addDirs?: readonly string[];
  /** Asks the user what a server's `elicitation/create` wants; every request is declined without it. */
  elicit?: Elicit;
  clientVersion?: string;
  /**
   * How long a use waits for a server that is still starting (settings `mcp.startupTimeout`);
   * past it the use fails with a message and the server goes on starting. Unbounded when unset.
   */
  startupWaitMs?: number;
  /** The least time a server gets to start and list its tools (default 30 s). */
  minStartTimeoutMs?: number;
}

/** More crashes than this within the window stop the automatic restarts (retried on next use). */
const MAX_RESTARTS = 3;
const RESTART_WINDOW_MS = 60_000;
/** The least time a server gets to start and list its tools. */
const MIN_START_TIMEOUT_MS = 30_000;

/**
 * One MCP server: connects on demand, keeps its tool list, restarts after a crash, and turns
 * every failure into an error output the model can act on.
 */
export class McpConnection {
  state: ConnectionState;
  error?: string;
  /** Its tools, prompts and resources, as last listed. */
  lists: ServerLists = emptyLists();
  /** Its logging messages. */
  readonly log: ServerLog;
  private client?: Client;
  private opened?: OpenedTransport;
  private pending?: Promise<void>;
  /** The transport of a connect in progress, so `close()` can end a server that is still starting. */
  private starting?: OpenedTransport;
  private crashes: number[] = [];
  /** What the server's `roots` setting stands for now. */
  private places: RootPlaces;

  constructor(
    readonly config: McpServerConfig,
    private readonly events: ConnectionEvents,
    private readonly options: ConnectionOptions = {},
  ) {
    this.state = config.disabled ? 'disabled' : 'idle';
    this.places = { workspace: options.workspace, addDirs: options.addDirs };
    this.log = new ServerLog(config.logLevel);
  }

  get tools(): ServerLists['tools'] {
    return this.lists.tools;
  }

  /** Connects and lists the tools; settles (never rejects) when done, whatever the outcome. */
  connect(): Promise<void> {
    if (this.state === 'disabled' || this.state === 'closed') return Promise.resolve();
    if (this.state === 'connected') return Promise.resolve();
    this.pending ??= this.open().finally(() => {
      this.pending = undefined;
      this.starting = undefined;
    });
    return this.pending;
  }

  private async open(): Promise<void> {
    this.state = 'connecting';
    this.error = undefined;
    let opened: OpenedTransport | undefined;
    try {
      const [{ Client }, types] = await Promise.all([
        import('@modelcontextprotocol/sdk/client/index.js'),
        import('@modelcontextprotocol/sdk/types.js'),
      ]);
      opened = await openTransport(this.config);
      this.starting = opened;
      // Roots only for a server whose entry asks for them: one given its own folders is told of none.
      const offersRoots = this.config.roots.length > 0;
      const client = new Client(
        { name: 'lathe', version: this.options.clientVersion ?? '0' },
        {
          capabilities: {
            elicitation: ELICITATION_CAPABILITY,
            ...(offersRoots ? { roots: { listChanged: true } } : {}),
          },
        },
      );
      answerElicitations(client, types, this.config.name, this.options.elicit);
      if (offersRoots) {
        client.setRequestHandler(types.ListRootsRequestSchema, () => ({
          roots: resolveRoots(this.config.roots, this.places),
        }));
      }
      watchLists(client, types, (kind) => void this.refresh(client, kind));
      client.onclose = () => this.lost(client);
      // One deadline for the whole start: an SSE server that never sends its endpoint would
      // otherwise hang `connect` forever (only requests have their own timeout).
      const lists = await withDeadline(this.startTimeoutMs(), async () => {
        await client.connect(opened!.transport, { timeout: this.startTimeoutMs() });
        await this.log.attach(client, types);
        return fetchLists(client, this.startTimeoutMs());
      });
      if (this.closed()) {
        await closeTransport(opened, client);
        return;
      }
      this.client = client;
      this.opened = opened;
      this.lists = lists;
      this.state = 'connected';
      this.events.onChange();
    } catch (error) {
      const reason = describeFailure(error, opened?.stderrTail() ?? '');
      await closeTransport(opened);
      if (this.closed()) return;
      this.state = 'failed';
      this.error = reason;
      this.events.onReport?.(
        isNeedsLogin(error)
          ? `MCP server "${this.config.name}" ${reason}`
          : `MCP server "${this.config.name}" failed to connect: ${reason} (retried on next use)`,
      );
      this.events.onChange();
    }
  }

  /**
   * Starting a server (a package to fetch, a busy machine) may take longer than one call should:
   * the handshake and the first tool listing get at least this long, whatever `timeout` says.
   */
  private startTimeoutMs(): number {
    return Math.max(this.config.timeoutMs, this.options.minStartTimeoutMs ?? MIN_START_TIMEOUT_MS);
  }

  /** Read through a method: `close()` may run while a connect awaits. */
  private closed(): boolean {
    return this.state === 'closed';
  }

  /** A server said one of its lists changed: listed again, the old list kept if that fails. */
  private async refresh(client: Client, kind: ListKind): Promise<void> {
    if (this.client !== client) return;
    try {
      const list = await fetchList(client, kind, this.startTimeoutMs());
      if (this.client !== client) return;
      this.lists = { ...this.lists, [kind]: list };
      this.events.onChange();
    } catch {
      // A broken connection shows itself on the next call.
    }
  }

  /** The connection closed without being asked to: the server crashed or exited. */
  private lost(client: Client): void {
    if (this.client !== client || this.state !== 'connected') return;
    const tail = this.opened?.stderrTail();
    this.client = undefined;
    this.opened = undefined;
    this.state = 'failed';
    this.error = `the server exited${tail ? ` (it said: ${lastLine(tail)})` : ''}`;
    const now = Date.now();
    this.crashes = [...this.crashes.filter((t) => now - t < RESTART_WINDOW_MS), now];
    if (this.crashes.length <= MAX_RESTARTS) {
      this.events.onReport?.(`MCP server "${this.config.name}" exited; restarting it`);
      void this.connect();
    } else {
      this.events.onReport?.(
        `MCP server "${this.config.name}" keeps exiting; not restarting it until its next use`,
      );
      this.events.onChange();
    }
  }

  /**
   * The connected client, connecting first when needed, waiting at most `startupWaitMs` for a
   * server that is still starting; throws a message the model can act on.
   */
  async ready(): Promise<Client> {
    if (this.state === 'disabled') {
      throw new Error(
        `MCP server "${this.config.name}" is disabled in ${this.config.source}; a user can enable it there.`,
      );
    }
    if (this.state !== 'connected') {
      const waitMs = this.options.startupWaitMs;
      const settled = await withDeadline(waitMs, () => this.connect().then(() => true)).catch(() => false);
      if (!settled) {
        throw new Error(
          `MCP server "${this.config.name}" is still starting after ${(waitMs ?? 0) / 1000} s; ` +
            'its tools join when it is up. Go on without it for now and try again later.',
        );
      }
    }
    if (this.client && this.state === 'connected') return this.client;
    throw new Error(
      `MCP server "${this.config.name}" is not available: ${this.error ?? 'it is shutting down'}. ` +
        `Check its entry in ${this.config.source} (lathe mcp test ${this.config.name}); do not retry at once.`,
    );
  }

  async callTool(
    tool: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; progress?: (message: string) => void },
  ): Promise<ToolOutput> {
    const client = await this.ready();
    const progress = options.progress;
    try {
      const result = await withOwnSignal(options.signal, (signal) =>
        client.callTool({ name: tool, arguments: args }, undefined, {
          signal,
          timeout: this.config.timeoutMs,
          ...(progress
            ? {
                onprogress: (p) =>
                  progress(`${p.progress}${p.total ? `/${p.total}` : ''}${p.message ? ` ${p.message}` : ''}`),
              }
            : {}),
        }),
      );
      return mapCallResult(result as Parameters<typeof mapCallResult>[0]);
    } catch (error) {
      return { isError: true, text: await this.failure(client, error, `tool ${tool}`, options.signal) };
    }
  }

  async readResource(uri: string, signal: AbortSignal): Promise<ToolOutput> {
    const client = await this.ready();
    try {
      const result = await withOwnSignal(signal, (own) =>
        client.readResource({ uri }, { signal: own, timeout: this.config.timeoutMs }),
      );
      return mapResourceContents(result.contents as Parameters<typeof mapResourceContents>[0]);
    } catch (error) {
      return { isError: true, text: await this.failure(client, error, `resource ${uri}`, signal) };
    }
  }

  /** A prompt's messages, its arguments filled in. */
  async getPrompt(name: string, args: Record<string, string>, signal: AbortSignal): Promise<PromptMessages> {
    const client = await this.ready();
    try {
      const result = await withOwnSignal(signal, (own) =>
        client.getPrompt({ name, arguments: args }, { signal: own, timeout: this.config.timeoutMs }),
      );
      return { messages: result.messages as PromptMessage[] };
    } catch (error) {
      return { error: await this.failure(client, error, `prompt ${name}`, signal) };
    }
  }

  /** Resources and resource templates; a server without resources has none. */
  async listResources(signal: AbortSignal): Promise<{
    resources: Array<{ uri: string; name: string; mimeType?: string; description?: string }>;
    templates: Array<{ uriTemplate: string; name: string; description?: string }>;
  }> {
    const client = await this.ready();
    if (!client.getServerCapabilities()?.resources) return { resources: [], templates: [] };
    const timeout = this.config.timeoutMs;
    const [resources, templates] = await Promise.all([
      withOwnSignal(signal, (own) => client.listResources(undefined, { signal: own, timeout })),
      withOwnSignal(signal, (own) => client.listResourceTemplates(undefined, { signal: own, timeout })).catch(
        () => ({ resourceTemplates: [] }),
      ),
    ]);
    return { resources: resources.resources, templates: templates.resourceTemplates };
  }

  /**
   * The folders roots stand for changed (a folder added, the session moved): a connected server
   * that is sent roots is told, and asks again.
   */
  async setRootPlaces(places: RootPlaces): Promise<void> {
    const before = JSON.stringify(resolveRoots(this.config.roots, this.places));
    this.places = { ...this.places, ...places };
    if (this.config.roots.length === 0 || !this.client) return;
    if (JSON.stringify(resolveRoots(this.config.roots, this.places)) === before) return;
    await this.client.sendRootsListChanged().catch(() => {});
  }

  /** A round trip to the server (`ping`), for `lathe mcp test`. */
  async ping(): Promise<void> {
    const client = await this.ready();
    await client.ping({ timeout: this.config.timeoutMs });
  }

  /** Explains a failed request and, when the connection itself broke, drops it so the next use reconnects. */
  private async failure(client: Client, error: unknown, what: string, signal: AbortSignal): Promise<string> {
    const kind = classifyFailure(error, signal);
    const name = this.config.name;
    switch (kind) {
      case 'cancelled':
        return `The call of ${what} on MCP server "${name}" was cancelled.`;
      case 'timeout':
        return (
          `MCP server "${name}" did not answer ${what} within ${this.config.timeoutMs / 1000} s; the request was cancelled. ` +
          `If it needs longer, raise "timeout" (seconds) for "${name}" in ${this.config.source}.`
        );
      case 'closed':
        return `MCP server "${name}" exited while running ${what}; lathe restarts it. Try again once; if it fails again, work around it.`;
      case 'protocol':
        return `MCP server "${name}" refused ${what}: ${describeFailure(error, '')}`;
      case 'transport':
        // The connection broke (an HTTP server went away): reconnect on the next use.
        if (this.client === client) {
          this.client = undefined;
          this.state = 'failed';
          this.error = describeFailure(error, '');
          const opened = this.opened;
          this.opened = undefined;
          await closeTransport(opened, client);
          this.events.onChange();
        }
        return `MCP server "${name}" could not be reached for ${what}: ${describeFailure(error, '')}. lathe reconnects on the next use.`;
    }
  }

  /** Closes the connection and ends a stdio server (its input closed, then SIGTERM if it lingers). */
  async close(): Promise<void> {
    this.state = 'closed';
    const { client, opened, starting } = this;
    this.client = undefined;
    this.opened = undefined;
    this.starting = undefined;
    await Promise.all([
      closeTransport(opened, client),
      starting !== opened ? closeTransport(starting) : undefined,
    ]);
  }
}
