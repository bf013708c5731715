import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { touchesNothing } from '../../tool/declared_subject.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { withMcp } from './shared.js';

const inputSchema = lazySchema(() =>
  z.strictObject({
    server_name: z.string().min(1).optional().describe('Only this server (default: every connected server)'),
  }),
);

export const listMcpResources = buildTool({
  name: 'list_mcp_resources',
  inputSchema,
  description:
    'List the resources (and resource templates) that connected MCP servers offer, with their URIs, ' +
    'to read with access_mcp_resource.',
  availability: { profiles: ['standard'], requires: ['mcp'] },
  kind: 'fetch',
  // Touches only what the servers offer; reading one is judged (access_mcp_resource): nothing the permission engine judges.
  permissionSubject: touchesNothing,
  userFacingName: () => 'MCP resources',
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  call: (input, ctx) => withMcp(ctx, (mcp) => mcp.listResources(input.server_name, ctx.signal)),
});
