/** A tool as tool_search finds and describes it: a deferred built-in or an MCP server's tool. */
export interface SearchableTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** Its definition is not in the model's tool list yet. */
  deferred: boolean;
}

/** The runtime's deferred built-in tools, as tool_search and the call pipeline reach them. */
export interface DeferredToolAccess {
  /** The deferred built-ins of the pool, loaded or not. */
  builtins(): SearchableTool[];
  /** Whether the tool's definition is still held back from the model. */
  isHeldBack(name: string): boolean;
  /** Puts these tools' definitions in the model's tool list for the rest of the session; returns those loaded now. */
  load(names: readonly string[]): string[];
}
