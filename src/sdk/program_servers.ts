import {
  DEFAULT_TIMEOUT_SECONDS,
  type InProcessMcpServer,
  type McpServerConfig,
  parseServer,
} from '../mcp/config.js';
import { UsageError } from './errors.js';
import type { McpServerOption } from './options.js';

const SOURCE = 'query options (mcpServers)';

function inProcessServer(value: McpServerOption): InProcessMcpServer | undefined {
  const isServer = (v: unknown): v is InProcessMcpServer =>
    typeof v === 'object' && v !== null && typeof (v as InProcessMcpServer).connect === 'function';
  if (isServer(value)) return value;
  const wrapped = (value as { type?: unknown; instance?: unknown }).instance;
  return (value as { type?: unknown }).type === 'sdk' && isServer(wrapped) ? wrapped : undefined;
}

/**
 * The program's MCP servers: a server object of the MCP SDK runs in this process, connected over
 * an in-memory transport; anything else is an entry as a settings file would have it (`command`,
 * `url`, …), checked the same way. A wrong entry is a usage error naming it.
 */
export function programMcpServers(
  servers: Record<string, McpServerOption> | undefined,
  context: { workspace: string; env: NodeJS.ProcessEnv },
): McpServerConfig[] {
  return Object.entries(servers ?? {}).map(([name, value]) => {
    const server = inProcessServer(value);
    if (server)
      return {
        name,
        transport: 'inProcess',
        server,
        args: [],
        env: {},
        headers: {},
        autoApprove: [],
        // The program's own code, in its own process: it is told of the folders it runs in.
        roots: [{ kind: 'workspace' }, { kind: 'added' }],
        disabled: false,
        timeoutMs: DEFAULT_TIMEOUT_SECONDS * 1000,
        source: SOURCE,
      };
    const parsed = parseServer(name, value, { source: SOURCE, ...context });
    if (typeof parsed === 'string') throw new UsageError(parsed);
    return parsed;
  });
}
