import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { definitionForModel } from '../tool/definition.js';
import type { ToolExecution } from '../tool/executor.js';
import { findTool } from '../tool/pool.js';
import { latheFacts, staticFacts } from '../tool/static_facts.js';
import type { PoolConditions, Tool, ToolResult } from '../tool/types.js';

/** What serving needs of a runtime (structurally: this layer does not import the runtime). */
export interface ServedRuntime {
  readonly pool: readonly Tool[];
  readonly conditions: PoolConditions;
  createExecution(options: { signal?: AbortSignal; progress?: (message: string) => void }): ToolExecution;
}

/**
 * The tools lathe serves: its pool under the runtime's settings, less those that talk to the user
 * through a running agent (an MCP client is not one).
 */
export function servedTools(runtime: ServedRuntime): Tool[] {
  return runtime.pool.filter((t) => !t.needsAgent);
}

function describeTool(tool: Tool, runtime: ServedRuntime): McpTool {
  const definition = definitionForModel(tool, runtime.conditions.profile);
  const facts = staticFacts(tool);
  const { destroysExisting } = latheFacts(tool);
  // A hint is given only for what holds whatever the input.
  const readOnly = typeof facts.readOnly === 'boolean' ? facts.readOnly : undefined;
  return {
    name: tool.name,
    description: definition.description,
    inputSchema: definition.inputSchema as McpTool['inputSchema'],
    annotations: {
      title: tool.userFacingName(undefined),
      ...(readOnly !== undefined ? { readOnlyHint: readOnly } : {}),
      // MCP reads destructiveHint only of tools that may write: lathe's own fact of what deletes,
      // overwrites or ends what exists; one that does on some calls (or cannot tell) is hinted so.
      ...(readOnly !== true ? { destructiveHint: destroysExisting !== false } : {}),
    },
  };
}

export function toCallToolResult(result: ToolResult): CallToolResult {
  return {
    content: [
      { type: 'text', text: result.text },
      ...(result.images ?? []).map((image) => ({
        type: 'image' as const,
        data: image.data,
        mimeType: image.mediaType,
      })),
    ],
    ...(result.isError ? { isError: true } : {}),
  };
}

/** Runs one call through the runtime's whole pipeline (validation, permissions, budgeting). */
async function runCall(
  runtime: ServedRuntime,
  name: string,
  input: unknown,
  options: { id: string; signal: AbortSignal; progress?: (message: string) => void },
): Promise<ToolResult> {
  const execution = runtime.createExecution({ signal: options.signal, progress: options.progress });
  execution.add({ id: options.id, name, input });
  execution.close();
  for await (const { result } of execution.results()) return result;
  return { isError: true, text: `${name} produced no result.` };
}

/**
 * An MCP server offering lathe's tools. Asks become denials unless the runtime was made with
 * `--approve` / `--yolo`: an MCP client has no way to answer lathe's approval prompts.
 */
export async function createLatheServer(runtime: ServedRuntime, version: string): Promise<Server> {
  const [{ Server }, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  const server = new Server(
    { name: 'lathe', version },
    {
      // Prompts are declared (clients ask for them) but none is served: expanding a custom
      // command may run its `!{…}` commands, which an MCP client has no way to approve.
      capabilities: { tools: {}, prompts: {} },
      instructions:
        'lathe’s coding tools on this machine: read, search, edit and run code in the workspace. ' +
        'Paths are relative to the workspace. Calls that need approval are refused unless the server ' +
        'was started with --approve or --yolo.',
    },
  );
  let calls = 0;
  server.setRequestHandler(types.ListPromptsRequestSchema, () => ({ prompts: [] }));
  server.setRequestHandler(types.ListToolsRequestSchema, () => ({
    tools: servedTools(runtime).map((t) => describeTool(t, runtime)),
  }));
  server.setRequestHandler(types.CallToolRequestSchema, async (request, extra) => {
    const served = servedTools(runtime);
    const name = request.params.name;
    if (!findTool(served, name)) {
      return toCallToolResult({
        isError: true,
        text: `Unknown tool "${name}". Tools: ${served.map((t) => t.name).join(', ')}.`,
      });
    }
    const token = request.params._meta?.progressToken;
    let step = 0;
    const progress =
      token === undefined
        ? undefined
        : (message: string) => {
            void extra
              .sendNotification({
                method: 'notifications/progress',
                params: { progressToken: token, progress: ++step, message },
              })
              .catch(() => {});
          };
    const result = await runCall(runtime, name, request.params.arguments ?? {}, {
      id: `mcp_${++calls}`,
      signal: extra.signal,
      progress,
    });
    return toCallToolResult(result);
  });
  return server;
}

/** Serves on stdin/stdout until the client goes away. Nothing else may write to stdout meanwhile. */
export async function serveStdio(runtime: ServedRuntime, version: string): Promise<void> {
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const server = await createLatheServer(runtime, version);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(() => {});
}
