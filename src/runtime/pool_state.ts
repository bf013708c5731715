import type { AgentKind, Mode, Profile } from '../config/types.js';
import { defaultConditions, FULL_CAPABILITIES } from '../tool/conditions.js';
import type { DeferredToolAccess } from '../tool/context/deferred_tools.js';
import type { McpAccess } from '../tool/context/mcp.js';
import { heldBackTools, searchableBuiltin } from '../tool/deferred.js';
import { assemblePool, coordinatorProblem, findTool } from '../tool/pool.js';
import type { PoolConditions, ProviderCapabilities, Tool } from '../tool/types.js';
import { builtinTools } from '../tools/index.js';
import { toolSearch, withDeferredToolNames } from '../tools/mcp/tool_search.js';

export interface PoolStateOptions {
  /** The built-in tools; default every one (a child runtime shares its parent's). */
  builtins?: Tool[];
  profile: Profile;
  strictPlanMode: boolean;
  features: ReadonlySet<string>;
  agentKind: AgentKind;
  jsonSchema: boolean;
  nodeEnv: string | undefined;
  capabilities: Partial<ProviderCapabilities>;
  external: Tool[];
  /** A program's own tools (the SDK's `tool()`), offered beside the MCP servers' after the built-ins. */
  programTools?: Tool[];
  mcp: McpAccess | undefined;
  /** A tool-wide deny rule leaves the tool out. */
  isDenied(name: string): boolean;
  /** Whether the agent may start children (it is above `agents.maxDepth`); default yes. */
  childAgents?: boolean;
  /** Whether a skill exists that the model may load (load_skill needs one). */
  hasSkills?: boolean;
  /** Whether a Markdown workflow exists (load_workflow is offered then); default no. */
  hasWorkflows?: boolean;
  /** Whether a language server can be started (find_references, rename). */
  languageServers?: boolean;
  /** Keeps only these tools (a child's type chooses its tools); default all. */
  keep?: (tool: Tool) => boolean;
}

/**
 * The tools a runtime offers and the conditions they were chosen under. What they depend on
 * changes as a session goes (the mode, the model's capabilities, MCP servers connecting); each
 * change assembles the pool again.
 */
export class PoolState {
  readonly builtins: Tool[];
  private externalTools: Tool[];
  private access: McpAccess | undefined;
  private deferred: readonly string[] = [];
  /** Deferred built-ins tool_search (or a call by name) has loaded: their definitions are given. */
  private readonly loaded = new Set<string>();
  private capabilityOverrides: Partial<ProviderCapabilities>;
  private mode: Mode = 'act';
  private current!: {
    conditions: PoolConditions;
    pool: Tool[];
    heldBack: ReadonlySet<string>;
    defined: Tool[];
    coordinatorProblem?: string;
  };

  /** Assembles nothing yet: `setMode` makes the first pool, once the permission engine exists. */
  constructor(private readonly options: PoolStateOptions) {
    this.builtins = options.builtins ?? builtinTools();
    this.externalTools = options.external;
    this.access = options.mcp;
    this.capabilityOverrides = { ...options.capabilities };
  }

  get conditions(): PoolConditions {
    return this.current.conditions;
  }

  get pool(): Tool[] {
    return this.current.pool;
  }

  /** The tools whose definitions the model is given: the pool less the deferred built-ins not loaded. */
  get definedTools(): Tool[] {
    return this.current.defined;
  }

  /** The deferred built-ins as tool_search and the call pipeline reach them. */
  readonly deferredTools: DeferredToolAccess = {
    builtins: () => {
      const { pool, heldBack } = this.current;
      if (!pool.some((tool) => tool.name === toolSearch.name)) return [];
      return pool
        .filter((tool) => tool.source === 'builtin' && tool.deferred)
        .map((tool) => searchableBuiltin(tool, heldBack.has(tool.name)));
    },
    isHeldBack: (name) => this.current.heldBack.has(name),
    load: (names) => {
      const loading = names.filter((name) => this.current.heldBack.has(name));
      for (const name of loading) this.loaded.add(name);
      if (loading.length > 0) this.assemble();
      return loading;
    },
  };

  /** Why coordinator mode, asked for, does not apply to this pool (the lead kept its tools). */
  get coordinatorProblem(): string | undefined {
    return this.current.coordinatorProblem;
  }

  /** The MCP client the MCP tools use, once servers are attached. */
  get mcp(): McpAccess | undefined {
    return this.access;
  }

  /**
   * A child agent's pool state (agent kind `subagent`): this one's settings and tools — the
   * built-ins made once, the MCP servers' tools as they are now — with the child's own model
   * capabilities, depth, type and deny rules.
   */
  forChild(child: {
    capabilities?: Partial<ProviderCapabilities>;
    childAgents: boolean;
    keep: (tool: Tool) => boolean;
    isDenied(name: string): boolean;
  }): PoolState {
    return new PoolState({
      ...this.options,
      builtins: this.builtins,
      agentKind: 'subagent',
      jsonSchema: false,
      capabilities: { ...this.capabilityOverrides, ...child.capabilities },
      external: this.externalTools,
      mcp: this.access,
      childAgents: child.childAgents,
      keep: child.keep,
      isDenied: child.isDenied,
    });
  }

  /** A tool's own name for one of its aliases (rules may name either); other names as they are. */
  readonly canonicalName = (name: string): string =>
    findTool([...this.builtins, ...(this.options.programTools ?? []), ...this.externalTools], name)?.name ??
    name;

  setMode(mode: Mode): void {
    this.mode = mode;
    this.assemble();
  }

  setCapabilities(next: Partial<ProviderCapabilities>): void {
    this.capabilityOverrides = { ...this.capabilityOverrides, ...next };
    this.assemble();
  }

  setExternalTools(tools: Tool[], next?: { access: McpAccess; deferred?: readonly string[] }): void {
    this.externalTools = tools;
    this.access = next?.access ?? this.access;
    this.deferred = next?.deferred ?? [];
    this.assemble();
  }

  private assemble(): void {
    const { options } = this;
    const conditions = defaultConditions({
      profile: options.profile,
      mode: this.mode,
      strictPlanMode: options.strictPlanMode,
      features: options.features,
      capabilities: { ...FULL_CAPABILITIES, ...this.capabilityOverrides },
      agentKind: options.agentKind,
      mcpConnected: this.externalTools.length > 0 || this.access !== undefined,
      jsonSchema: options.jsonSchema,
      childAgents: options.childAgents ?? true,
      hasSkills: options.hasSkills ?? false,
      hasWorkflows: options.hasWorkflows ?? false,
      languageServers: options.languageServers ?? false,
      nodeEnv: options.nodeEnv,
    });
    const poolOptions = {
      builtins: this.builtins,
      external: [...(options.programTools ?? []), ...this.externalTools],
      conditions,
      isDenied: (name: string) => options.isDenied(name),
    };
    const assembled = assemblePool(poolOptions);
    // A child's type keeps only some tools.
    const kept = options.keep ? assembled.filter(options.keep) : assembled;
    const heldBack = heldBackTools(kept, toolSearch.name, this.loaded);
    const pool = withDeferredToolNames(kept, this.deferred, heldBack);
    const held = new Set(heldBack.map((tool) => tool.name));
    this.current = {
      conditions,
      pool,
      heldBack: held,
      defined: pool.filter((tool) => !held.has(tool.name)),
      coordinatorProblem: coordinatorProblem(poolOptions),
    };
  }
}
