import { accessMcpResource } from './access_mcp_resource.js';
import { listMcpResources } from './list_mcp_resources.js';
import { loadMcp } from './load_mcp.js';
import { loadMcpDocumentation } from './load_mcp_documentation.js';
import { toolSearch } from './tool_search.js';
import { useMcpTool } from './use_mcp_tool.js';

/** The MCP family: calling servers' tools and resources, their metadata, the guide, tool search. */
export const mcpTools = [
  useMcpTool,
  accessMcpResource,
  listMcpResources,
  loadMcp,
  loadMcpDocumentation,
  toolSearch,
];
