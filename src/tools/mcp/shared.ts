import type { McpAccess } from '../../tool/context/mcp.js';
import type { ToolContext, ToolOutput } from '../../tool/types.js';

export const NO_MCP =
  'No MCP server is configured. A user adds one with `lathe mcp add NAME -- COMMAND ARGS…` or in ' +
  '.agents/mcp/*.json; load_mcp_documentation explains how.';

/** Runs `fn` with the MCP client, or says there is none; a thrown message becomes an error result. */
export async function withMcp(
  ctx: ToolContext,
  fn: (mcp: McpAccess) => Promise<ToolOutput>,
): Promise<ToolOutput> {
  if (!ctx.mcp) return { isError: true, text: NO_MCP };
  try {
    return await fn(ctx.mcp);
  } catch (error) {
    return { isError: true, text: (error as Error).message };
  }
}

/** `arguments` may come as an object or, from models that write JSON as text, as a JSON string. */
export function parseArguments(value: unknown): Record<string, unknown> | string {
  if (value === undefined) return {};
  let parsed = value;
  if (typeof value === 'string') {
    if (value.trim() === '') return {};
    try {
      parsed = JSON.parse(value);
    } catch (error) {
      return `arguments is not valid JSON (${(error as Error).message}); pass a JSON object.`;
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return 'arguments must be a JSON object of the tool’s parameters.';
  }
  return parsed as Record<string, unknown>;
}
