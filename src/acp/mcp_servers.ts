import type { McpServer } from '@agentclientprotocol/sdk';

/**
 * The editor's MCP servers as entries of lathe's MCP settings: they join the settings' own servers
 * (a name given by the editor replaces one of the settings).
 */
export function mcpEntries(
  servers: readonly McpServer[] | undefined,
): Record<string, Record<string, unknown>> {
  const entries: Record<string, Record<string, unknown>> = {};
  for (const server of servers ?? []) {
    if ('type' in server && (server.type === 'http' || server.type === 'sse')) {
      entries[server.name] = {
        type: server.type,
        url: server.url,
        headers: Object.fromEntries(server.headers.map((header) => [header.name, header.value])),
      };
    } else if ('command' in server) {
      entries[server.name] = {
        command: server.command,
        args: server.args,
        env: Object.fromEntries(server.env.map((variable) => [variable.name, variable.value])),
      };
    }
  }
  return entries;
}
