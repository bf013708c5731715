import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { touchesNothing } from '../../tool/declared_subject.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { MCP_GUIDE } from './mcp_guide.js';

export const loadMcpDocumentation = buildTool({
  name: 'load_mcp_documentation',
  inputSchema: lazySchema(() => z.strictObject({})),
  description:
    'Load the guide to writing an MCP server (with a complete working example) and adding it to lathe. ' +
    'Use it when the user asks to create or install an MCP server.',
  availability: { profiles: ['standard'] },
  kind: 'read',
  // Touches only a guide lathe ships: nothing the permission engine judges.
  permissionSubject: touchesNothing,
  example: { input: {} },
  userFacingName: () => 'MCP guide',
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  call: async () => ({ text: MCP_GUIDE }),
});
