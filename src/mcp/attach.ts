import type { RuleLists } from '../permission/types.js';
import type { McpAccess } from '../tool/context/mcp.js';
import { hasTool } from '../tool/pool.js';
import type { Tool } from '../tool/types.js';
import { loadMcpConfig, type McpServerConfig } from './config.js';
import type { Elicit } from './elicitation.js';
import type { McpHub } from './hub.js';
import { mcpToolName, sanitizeName } from './names.js';

/** What attaching needs of a runtime (structurally: this layer does not import the runtime). */
export interface McpHost {
  readonly documentsRoot: string;
  readonly workspace: string;
  /** Workspace servers start only in a folder the user trusts. */
  readonly trust: { readonly trusted: boolean };
  readonly pool: readonly Tool[];
  /** Feature `tool_search` defers the servers' tools. */
  readonly conditions: { readonly features: ReadonlySet<string> };
  readonly permissions: {
    addRules(rules: RuleLists, source: string): string[];
    /** The `--add-dir` folders: the roots a server's `roots: ["added"]` stands for. */
    readonly extraRoots?: readonly string[];
  };
  readonly settings: { readonly mcp: { readonly startupTimeoutMs: number } };
  setExternalTools(tools: Tool[], mcp?: { access: McpAccess; deferred?: readonly string[] }): void;
}

/** The allow rules a server's `autoApprove` entries stand for: `server__tool` (or `server__*`), by server. */
export function autoApproveRules(servers: readonly McpServerConfig[]): { source: string; allow: string[] }[] {
  return servers
    .filter((server) => server.autoApprove.length > 0)
    .map((server) => ({
      source: `autoApprove of "${server.name}" in ${server.source}`,
      allow: server.autoApprove.map((tool) =>
        tool.includes('*') ? `${sanitizeName(server.name)}__${tool}` : mcpToolName(server.name, tool),
      ),
    }));
}

/**
 * Starts the MCP servers of the workspace's settings for a runtime, without waiting for them:
 * they connect in parallel and their tools join the pool as each comes up. Returns undefined
 * (having loaded nothing of MCP) when no server is configured.
 */
export async function attachMcp(
  host: McpHost,
  options: {
    report: (line: string) => void;
    env?: NodeJS.ProcessEnv;
    clientVersion?: string;
    /** Asks the user what a server's elicitation wants (declined without it). */
    elicit?: Elicit;
    /** A program's servers (the SDK's `mcpServers`); one replaces a configured server of its name. */
    servers?: readonly McpServerConfig[];
  },
): Promise<McpHub | undefined> {
  const loaded = loadMcpConfig({
    documentsRoot: host.documentsRoot,
    workspace: host.workspace,
    workspaceTrusted: host.trust.trusted,
    env: options.env,
  });
  for (const warning of loaded.warnings) options.report(`warning: ${warning}`);
  const given = options.servers ?? [];
  const config = {
    servers: [...loaded.servers.filter((s) => !given.some((g) => g.name === s.name)), ...given],
  };
  if (!config.servers.some((s) => !s.disabled)) return undefined;

  // autoApprove lives in the MCP files, not in settings: its allow rules join the engine's rules.
  for (const { source, allow } of autoApproveRules(config.servers))
    for (const problem of host.permissions.addRules({ allow }, source)) options.report(`warning: ${problem}`);
  const { McpHub } = await import('./hub.js');
  const hub: McpHub = new McpHub(config.servers, {
    workspace: host.workspace,
    addDirs: host.permissions.extraRoots,
    elicit: options.elicit,
    clientVersion: options.clientVersion,
    startupWaitMs: host.settings.mcp.startupTimeoutMs,
    onReport: options.report,
    onChange: () => host.setExternalTools(hub.tools(), { access: hub, deferred: hub.deferredNames() }),
  });
  // Deferral is asked for by feature `tool_search` and needs tool_search (standard profile, not
  // denied) to load tools back. The pool offers tool_search only while some tool is deferred, so
  // ask it with one held back.
  host.setExternalTools([], { access: hub, deferred: ['(any)'] });
  const canDefer = host.conditions.features.has('tool_search') && hasTool(host.pool, 'tool_search');
  host.setExternalTools([], { access: hub });
  hub.setDeferral(canDefer);
  void hub.connectAll();
  return hub;
}

/**
 * Waits for the servers to start, at most `mcp.startupTimeout`, and reports each that is still
 * starting then in one line; `after` says what becomes of it (it joins later, or is left out).
 */
export async function waitForMcpStartup(
  hub: McpHub,
  startupTimeoutMs: number,
  report: (line: string) => void,
  after: string,
): Promise<void> {
  const pending = await hub.waitForStartup(startupTimeoutMs);
  for (const name of pending) {
    report(
      `MCP server "${name}" is not up after ${startupTimeoutMs / 1000} s (mcp.startupTimeout); ${after}`,
    );
  }
}
