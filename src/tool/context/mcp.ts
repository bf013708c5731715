import type { ToolOutput } from '../output.js';

/** An MCP server's tool as the MCP tools see it. */
export interface McpToolSummary {
  /** The name in the pool: `server__tool`, sanitised. */
  name: string;
  server: string;
  /** The tool's own name on its server. */
  tool: string;
  description: string;
  inputSchema: Record<string, unknown>;
  readOnly: boolean;
  /** Held back from the pool until tool_search loads it. */
  deferred: boolean;
}

export interface McpServerSummary {
  name: string;
  state: 'connecting' | 'connected' | 'failed' | 'disabled';
  error?: string;
  /** Its OAuth login, for a server that has one or asks for one: `needs login`, `logged in, expires in 58 min`. */
  auth?: string;
  tools: McpToolSummary[];
  /** Its latest logging messages, oldest first. */
  log?: Array<{ level: string; logger?: string; text: string }>;
}

/** What the MCP tools need of the MCP client; the hub implements it. Failures are thrown as Errors the model can act on. */
export interface McpAccess {
  servers(): McpServerSummary[];
  /** A server's tool; connects (or reconnects) the server first when it is not up. */
  findTool(server: string, tool: string, signal: AbortSignal): Promise<McpToolSummary>;
  callTool(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; progress?: (message: string) => void },
  ): Promise<ToolOutput>;
  /** Resources (and templates) of one server, or of every connected server. */
  listResources(server: string | undefined, signal: AbortSignal): Promise<ToolOutput>;
  readResource(server: string, uri: string, signal: AbortSignal): Promise<ToolOutput>;
  /** Why a tool no longer in the pool cannot be called, when its server took it off its list. */
  withdrawnTool?(name: string): string | undefined;
  /** Loads deferred tools into the pool for the rest of the session; returns the names loaded. */
  loadTools(names: readonly string[]): string[];
}
