import { z } from 'zod';
import { buildTool, MCP_RESULT_CHARS } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { withMcp } from './shared.js';

const inputSchema = lazySchema(() =>
  z.strictObject({
    server_name: z.string().min(1).describe('The MCP server that provides the resource'),
    uri: z.string().min(1).describe('The resource URI (from list_mcp_resources, or a filled-in template)'),
  }),
);

export const accessMcpResource = buildTool({
  name: 'access_mcp_resource',
  inputSchema,
  description:
    'Read a resource of a connected MCP server by its URI: files, records, documents the server offers. ' +
    'Find URIs with list_mcp_resources.',
  availability: { profiles: ['standard'], requires: ['mcp'] },
  kind: 'fetch',
  userFacingName: () => 'MCP resource',
  maxResultChars: MCP_RESULT_CHARS,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  // Reading from a server is MCP traffic: category MCP, rules `access_mcp_resource(server)`.
  permissionSubject: (input) => ({ kind: 'mcp', subjects: [input.server_name] }),
  call: (input, ctx) => withMcp(ctx, (mcp) => mcp.readResource(input.server_name, input.uri, ctx.signal)),
});
