import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { withMcp } from './shared.js';

const inputSchema = lazySchema(() =>
  z.strictObject({
    server_name: z.string().min(1).describe('The MCP server'),
    tool_name: z.string().min(1).describe('The tool’s name on that server'),
  }),
);

export const loadMcp = buildTool({
  name: 'load_mcp',
  inputSchema,
  description:
    'Show an MCP tool’s full metadata without running it: its description and the JSON Schema of its ' +
    'arguments, to call it correctly with use_mcp_tool.',
  availability: { profiles: ['standard'], requires: ['mcp'] },
  kind: 'other',
  userFacingName: () => 'Load MCP tools',
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  call: (input, ctx) =>
    withMcp(ctx, async (mcp) => {
      const tool = await mcp.findTool(input.server_name, input.tool_name, ctx.signal);
      const lines = [
        `Tool ${tool.tool} of MCP server ${tool.server}`,
        `Name in the tool list: ${tool.name}${tool.deferred ? ' (deferred: load it with tool_search to call it directly)' : ''}`,
        `Read-only (the server's hint): ${tool.readOnly ? 'yes' : 'no'}`,
        '',
        tool.description.trim() || '(no description)',
        '',
        'Input schema:',
        JSON.stringify(tool.inputSchema, null, 2),
        '',
        `Call it with use_mcp_tool {"server_name": ${JSON.stringify(tool.server)}, "tool_name": ${JSON.stringify(tool.tool)}, "arguments": {…}}.`,
      ];
      return { text: lines.join('\n'), data: tool };
    }),
});
