import type { AgentKind, Mode, Profile } from '../config/types.js';
import { defaultConditions, FULL_CAPABILITIES } from '../tool/conditions.js';
import type { McpAccess } from '../tool/context/mcp.js';
import { assemblePool, coordinatorProblem, findTool } from '../tool/pool.js';
import type { PoolConditions, ProviderCapabilities, Tool } from '../tool/types.js';
import { builtinTools } from '../tools/index.js';
import { withDeferredToolNames } from '../tools/mcp/tool_search.js';

export interface PoolStateOptions {
  profile: Profile;
  strictPlanMode: boolean;
  features: ReadonlySet<string>;
  agentKind: AgentKind;
  jsonSchema: boolean;
  nodeEnv: string | undefined;
  capabilities: Partial<ProviderCapabilities>;
  external: Tool[];
  mcp: McpAccess | undefined;
  /** A tool-wide deny rule leaves the tool out. */
  isDenied(name: string): boolean;
}

/**
 * The tools a runtime offers and the conditions they were chosen under. What they depend on
 * changes as a session goes (the mode, the model's capabilities, MCP servers connecting); each
 * change assembles the pool again.
 */
export class PoolState {
  readonly builtins = builtinTools();
  private external: Tool[];
  private access: McpAccess | undefined;
  private deferred: readonly string[] = [];
  private capabilities: Partial<ProviderCapabilities>;
  private mode: Mode = 'act';
  private current!: { conditions: PoolConditions; pool: Tool[]; coordinatorProblem?: string };

  /** Assembles nothing yet: `setMode` makes the first pool, once the permission engine exists. */
  constructor(private readonly options: PoolStateOptions) {
    this.external = options.external;
    this.access = options.mcp;
    this.capabilities = { ...options.capabilities };
  }

  get conditions(): PoolConditions {
    return this.current.conditions;
  }

  get pool(): Tool[] {
    return this.current.pool;
  }

  /** Why coordinator mode, asked for, does not apply to this pool (the lead kept its tools). */
  get coordinatorProblem(): string | undefined {
    return this.current.coordinatorProblem;
  }

  /** The MCP client the MCP tools use, once servers are attached. */
  get mcp(): McpAccess | undefined {
    return this.access;
  }

  /** A tool's own name for one of its aliases (rules may name either); other names as they are. */
  readonly canonicalName = (name: string): string =>
    findTool([...this.builtins, ...this.external], name)?.name ?? name;

  setMode(mode: Mode): void {
    this.mode = mode;
    this.assemble();
  }

  setCapabilities(next: Partial<ProviderCapabilities>): void {
    this.capabilities = { ...this.capabilities, ...next };
    this.assemble();
  }

  setExternalTools(tools: Tool[], next?: { access: McpAccess; deferred?: readonly string[] }): void {
    this.external = tools;
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
      capabilities: { ...FULL_CAPABILITIES, ...this.capabilities },
      agentKind: options.agentKind,
      mcpConnected: this.external.length > 0 || this.access !== undefined,
      jsonSchema: options.jsonSchema,
      nodeEnv: options.nodeEnv,
    });
    const poolOptions = {
      builtins: this.builtins,
      external: this.external,
      conditions,
      isDenied: (name: string) => options.isDenied(name),
    };
    const pool = withDeferredToolNames(assemblePool(poolOptions), this.deferred);
    this.current = { conditions, pool, coordinatorProblem: coordinatorProblem(poolOptions) };
  }
}
