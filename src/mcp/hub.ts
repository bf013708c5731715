import type { McpAccess, McpServerSummary, McpToolSummary } from '../tool/context/mcp.js';
import type { Tool, ToolOutput } from '../tool/types.js';
import { authState, authStateText } from './auth/state.js';
import type { McpServerConfig } from './config.js';
import {
  type ConnectionOptions,
  McpConnection,
  type PromptMessages,
  type RemotePrompt,
  type RemoteResource,
  type RemoteTool,
} from './connection.js';
import { externalTool, isReadOnlyTool } from './external_tool.js';
import { formatResourceListing, type ResourceListing } from './listing.js';
import { uniqueToolNames } from './names.js';
import type { RootPlaces } from './roots.js';

export interface HubOptions extends ConnectionOptions {
  /** The tools or a server's state changed; the runtime rebuilds its pool. */
  onChange?: () => void;
  /** One line for the user: a server failed, exited, restarted. */
  onReport?: (message: string) => void;
}

interface IndexedTool {
  summary: McpToolSummary;
  remote: RemoteTool;
  tool: Tool;
}

/**
 * The MCP client of a session: every configured server, connected in parallel, their tools
 * indexed by pool name, and the services the MCP tools use.
 */
export class McpHub implements McpAccess {
  private readonly connections = new Map<string, McpConnection>();
  private readonly loaded = new Set<string>();
  private index: IndexedTool[] = [];
  private built = new Map<string, IndexedTool>();
  /** Pool names of tools their server has taken off its list, so a call of one is told why it fails. */
  private readonly withdrawn = new Map<string, { server: string; tool: string }>();
  private initial?: Promise<void>;
  /** Feature tool_search: tools stay out of the pool (names only) until tool_search loads them. */
  private deferTools = false;

  constructor(
    configs: readonly McpServerConfig[],
    private readonly options: HubOptions = {},
  ) {
    for (const config of configs) {
      const connection = new McpConnection(
        config,
        { onChange: () => this.changed(), onReport: (m) => this.options.onReport?.(m) },
        options,
      );
      this.connections.set(config.name, connection);
    }
  }

  setDeferral(on: boolean): void {
    this.deferTools = on;
    this.changed();
  }

  /** Starts every server at once; the promise settles when each has connected or failed. */
  connectAll(): Promise<void> {
    this.initial ??= Promise.all([...this.connections.values()].map((c) => c.connect())).then(() => {});
    return this.initial;
  }

  /**
   * Starts every server and waits until each is up or has failed, but no longer than `ms`.
   * Returns the names of the servers still starting then (they go on in the background).
   */
  async waitForStartup(ms: number): Promise<string[]> {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    });
    await Promise.race([this.connectAll(), expired]);
    clearTimeout(timer);
    return [...this.connections.values()]
      .filter((c) => c.state === 'idle' || c.state === 'connecting')
      .map((c) => c.config.name);
  }

  get configs(): McpServerConfig[] {
    return [...this.connections.values()].map((c) => c.config);
  }

  connection(name: string): McpConnection | undefined {
    return this.connections.get(name);
  }

  /** The tools for the pool: every tool of every server, except those still deferred. */
  tools(): Tool[] {
    return this.index.filter((t) => !t.summary.deferred).map((t) => t.tool);
  }

  /** Names of tools held back for tool_search. */
  deferredNames(): string[] {
    return this.index.filter((t) => t.summary.deferred).map((t) => t.summary.name);
  }

  private changed(): void {
    this.rebuildIndex();
    this.options.onChange?.();
  }

  /** Pool names are given in config order, so a name never depends on which server came up first. */
  private rebuildIndex(): void {
    const taken = new Set<string>();
    const next: IndexedTool[] = [];
    const built = new Map<string, IndexedTool>();
    for (const connection of this.connections.values()) {
      const server = connection.config.name;
      const remotes = connection.tools;
      const names = uniqueToolNames(
        server,
        remotes.map((r) => r.name),
        taken,
      );
      remotes.forEach((remote, i) => {
        const name = names[i];
        const deferred = this.deferTools && !this.loaded.has(name);
        const previous = this.built.get(name);
        const entry: IndexedTool =
          previous && previous.remote === remote
            ? { ...previous, summary: { ...previous.summary, deferred } }
            : {
                remote,
                summary: {
                  name,
                  server,
                  tool: remote.name,
                  description: remote.description,
                  inputSchema: remote.inputSchema,
                  readOnly: isReadOnlyTool(remote),
                  deferred,
                },
                tool: externalTool({
                  name,
                  server,
                  remote,
                  call: (args, signal, progress) =>
                    this.callTool(server, remote.name, args, { signal, progress }),
                }),
              };
        next.push(entry);
        built.set(name, entry);
      });
    }
    for (const [name, entry] of this.built) {
      if (!built.has(name))
        this.withdrawn.set(name, { server: entry.summary.server, tool: entry.remote.name });
    }
    for (const name of built.keys()) this.withdrawn.delete(name);
    this.index = next;
    this.built = built;
  }

  /** Why a tool the pool no longer has cannot be called, when its server took it away. */
  withdrawnTool(name: string): string | undefined {
    const gone = this.withdrawn.get(name);
    if (!gone) return undefined;
    return `MCP server "${gone.server}" no longer offers tool "${gone.tool}" (it changed its tool list); use the tools it offers now.`;
  }

  /** The prompts of the connected servers, as `/server:prompt` commands. */
  prompts(): Array<{ server: string; prompt: RemotePrompt }> {
    return this.connected().flatMap((c) =>
      c.lists.prompts.map((prompt) => ({ server: c.config.name, prompt })),
    );
  }

  /** The resources the connected servers list, as `@server:uri` mentions. */
  resources(): Array<{ server: string; resource: RemoteResource }> {
    return this.connected().flatMap((c) =>
      c.lists.resources.map((resource) => ({ server: c.config.name, resource })),
    );
  }

  /** One server's prompts, once it is up (connecting it first when needed). */
  async promptsOf(server: string): Promise<RemotePrompt[]> {
    const connection = this.serverNamed(server);
    await connection.ready();
    return connection.lists.prompts;
  }

  private connected(): McpConnection[] {
    return [...this.connections.values()].filter((c) => c.state === 'connected');
  }

  /** A server prompt's messages, its arguments filled in. */
  async getPrompt(
    server: string,
    prompt: string,
    args: Record<string, string>,
    signal: AbortSignal,
  ): Promise<PromptMessages> {
    try {
      return await this.serverNamed(server).getPrompt(prompt, args, signal);
    } catch (error) {
      return { error: (error as Error).message };
    }
  }

  servers(): McpServerSummary[] {
    return [...this.connections.values()].map((c) => ({
      name: c.config.name,
      state:
        c.state === 'idle' || c.state === 'connecting'
          ? 'connecting'
          : c.state === 'closed'
            ? 'failed'
            : c.state,
      ...(c.error ? { error: c.error } : {}),
      ...this.authOf(c),
      log: c.log.latest(),
      tools: this.index.filter((t) => t.summary.server === c.config.name).map((t) => t.summary),
    }));
  }

  /** The login state of a server that uses OAuth, once it has a login or asked for one. */
  private authOf(connection: McpConnection): { auth?: string } {
    if (!connection.config.oauth) return {};
    const state = authState(connection.config);
    return state.kind === 'none' ? {} : { auth: authStateText(state) };
  }

  private serverNamed(name: string): McpConnection {
    const connection = this.connections.get(name);
    if (connection) return connection;
    const known = [...this.connections.values()].map((c) => `${c.config.name} (${c.state})`);
    throw new Error(
      known.length > 0
        ? `Unknown MCP server "${name}". Configured servers: ${known.join(', ')}.`
        : 'No MCP server is configured (see load_mcp_documentation).',
    );
  }

  async findTool(server: string, tool: string, _signal: AbortSignal): Promise<McpToolSummary> {
    const connection = this.serverNamed(server);
    await connection.ready();
    const mine = this.index.filter((t) => t.summary.server === server);
    const found =
      mine.find((t) => t.remote.name === tool) ?? mine.find((t) => t.summary.name === tool) ?? undefined;
    if (found) return found.summary;
    const names = mine.map((t) => t.remote.name);
    throw new Error(
      names.length > 0
        ? `MCP server "${server}" has no tool "${tool}". Its tools: ${names.join(', ')}.`
        : `MCP server "${server}" has no tools.`,
    );
  }

  async callTool(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; progress?: (message: string) => void },
  ): Promise<ToolOutput> {
    try {
      return await this.serverNamed(server).callTool(tool, args, options);
    } catch (error) {
      return { isError: true, text: (error as Error).message };
    }
  }

  async readResource(server: string, uri: string, signal: AbortSignal): Promise<ToolOutput> {
    try {
      return await this.serverNamed(server).readResource(uri, signal);
    } catch (error) {
      return { isError: true, text: (error as Error).message };
    }
  }

  async listResources(server: string | undefined, signal: AbortSignal): Promise<ToolOutput> {
    let targets: McpConnection[];
    try {
      targets = server ? [this.serverNamed(server)] : [...this.connections.values()];
    } catch (error) {
      return { isError: true, text: (error as Error).message };
    }
    const listings: ResourceListing[] = await Promise.all(
      targets
        .filter((c) => server !== undefined || c.state !== 'disabled')
        .map(async (c) => {
          try {
            return { server: c.config.name, ...(await c.listResources(signal)) };
          } catch (error) {
            return { server: c.config.name, error: (error as Error).message, resources: [], templates: [] };
          }
        }),
    );
    const failed = server !== undefined && listings[0]?.error !== undefined;
    return { text: formatResourceListing(listings), ...(failed ? { isError: true } : {}) };
  }

  /** The workspace or the `--add-dir` folders changed: servers sent roots are told. */
  async setRootPlaces(places: RootPlaces): Promise<void> {
    await Promise.all([...this.connections.values()].map((c) => c.setRootPlaces(places)));
  }

  loadTools(names: readonly string[]): string[] {
    const loaded: string[] = [];
    for (const name of names) {
      const entry = this.index.find((t) => t.summary.name === name);
      if (!entry?.summary.deferred) continue;
      this.loaded.add(name);
      loaded.push(name);
    }
    if (loaded.length > 0) this.changed();
    return loaded;
  }

  async close(): Promise<void> {
    await Promise.all([...this.connections.values()].map((c) => c.close()));
  }
}
