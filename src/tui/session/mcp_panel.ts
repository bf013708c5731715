import type { McpServerSummary } from '../../tool/context/mcp.js';
import type { Color, Line } from '../render/style.js';

const STATE_COLOR: Record<McpServerSummary['state'], Color> = {
  connecting: 'yellow',
  connected: 'green',
  failed: 'red',
  disabled: 'gray',
};

function stateText(server: McpServerSummary): string {
  switch (server.state) {
    case 'connected':
      return `connected, ${server.tools.length} tool${server.tools.length === 1 ? '' : 's'}`;
    case 'failed':
      return `failed: ${server.error ?? 'unknown reason'}`;
    default:
      return server.state;
  }
}

/** Logging messages shown per server: the latest. */
const LOG_LINES = 5;
const LOG_COLOR: Record<string, Color> = {
  warning: 'yellow',
  error: 'red',
  critical: 'red',
  alert: 'red',
  emergency: 'red',
};

function logLines(server: McpServerSummary, indent: string): Line[] {
  const log = server.log ?? [];
  const shown = log.slice(-LOG_LINES);
  const lines: Line[] = shown.map((entry) => [
    {
      text: `${indent}${entry.level}${entry.logger ? ` ${entry.logger}` : ''}: `,
      style: { color: LOG_COLOR[entry.level] ?? 'gray' },
    },
    { text: entry.text, style: { color: 'gray' } },
  ]);
  if (log.length > shown.length)
    lines.unshift([
      { text: `${indent}log (latest ${shown.length} of ${log.length}):`, style: { color: 'gray' } },
    ]);
  return lines;
}

const authColor = (auth: string): Color => (auth.startsWith('logged in') ? 'gray' : 'yellow');

/** `/mcp`: each server's state, its tools by their names in the pool, and its latest logging messages. */
export function mcpPanel(servers: readonly McpServerSummary[] | undefined): { title: string; lines: Line[] } {
  if (!servers || servers.length === 0) {
    return {
      title: 'No MCP server is running here (none configured, or all disabled: see lathe mcp list).',
      lines: [],
    };
  }
  const width = Math.max(...servers.map((s) => s.name.length));
  const lines: Line[] = [];
  for (const server of servers) {
    lines.push([
      { text: `  ${server.name.padEnd(width)}  ` },
      { text: stateText(server), style: { color: STATE_COLOR[server.state] } },
      ...(server.auth
        ? [{ text: `  (auth: ${server.auth})`, style: { color: authColor(server.auth) } }]
        : []),
    ]);
    if (server.tools.length > 0) {
      const names = server.tools.map((t) => (t.deferred ? `${t.name} (deferred)` : t.name));
      lines.push([{ text: `  ${' '.repeat(width)}  ${names.join(', ')}`, style: { color: 'gray' } }]);
    }
    lines.push(...logLines(server, `  ${' '.repeat(width)}  `));
  }
  return { title: `MCP servers (${servers.length})`, lines };
}
