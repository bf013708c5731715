import { z } from 'zod';
import { buildTool, MCP_RESULT_CHARS } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { NO_MCP, parseArguments, withMcp } from './shared.js';

const inputSchema = lazySchema(() =>
  z.strictObject({
    server_name: z.string().min(1).describe('The MCP server that provides the tool'),
    tool_name: z.string().min(1).describe('The tool’s name on that server'),
    arguments: z
      .union([z.record(z.string(), z.unknown()), z.string()])
      .optional()
      .describe('The tool’s arguments: a JSON object matching its input schema (see load_mcp)'),
  }),
);

export const useMcpTool = buildTool({
  name: 'use_mcp_tool',
  inputSchema,
  description:
    'Call a tool of a connected MCP server with arguments matching its input schema. Use load_mcp first ' +
    'when you do not know the schema. The server names and tools are those the user configured; an ' +
    'unknown name is answered with the list of what exists.',
  availability: { profiles: ['standard'], requires: ['mcp'] },
  kind: 'other',
  maxResultChars: MCP_RESULT_CHARS,
  // Rules on use_mcp_tool itself match `server__tool`; the call is judged as the server's tool below.
  permissionSubject: (input) => ({ kind: 'none', subjects: [`${input.server_name}__${input.tool_name}`] }),
  async validateInput(input, ctx) {
    if (!ctx.mcp) return NO_MCP;
    const args = parseArguments(input.arguments);
    if (typeof args === 'string') return args;
    try {
      await ctx.mcp.findTool(input.server_name, input.tool_name, ctx.signal);
    } catch (error) {
      return (error as Error).message;
    }
    return undefined;
  },
  /** Exactly as the server's tool `server__tool` would be: category MCP, its rules, autoApprove. */
  async checkPermissions(input, ctx) {
    if (!ctx.mcp) return { behavior: 'allow' };
    const found = await ctx.mcp.findTool(input.server_name, input.tool_name, ctx.signal);
    return ctx.permissions.decide({
      tool: found.name,
      readOnly: found.readOnly,
      subject: { kind: 'mcp', subjects: [found.name] },
      strictPlanRefused: false,
    });
  },
  userFacingName: (input) => (input ? `${input.server_name}: ${input.tool_name}` : 'MCP tool'),
  call: (input, ctx) =>
    withMcp(ctx, async (mcp) => {
      const args = parseArguments(input.arguments) as Record<string, unknown>;
      const found = await mcp.findTool(input.server_name, input.tool_name, ctx.signal);
      return mcp.callTool(input.server_name, found.tool, args, {
        signal: ctx.signal,
        progress: ctx.progress,
      });
    }),
});
