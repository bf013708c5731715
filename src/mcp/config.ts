import { readdirSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { globalMcpSettingsPath, mcpAuthFolder, projectMcpJsonPath } from '../config/paths.js';
import { readSettingsObject, SettingsError } from '../config/settings_file.js';
import { type McpOAuthSettings, parseOAuthSettings } from './auth/settings.js';
import { expandVariables } from './expand.js';
import { parseRoots, type RootEntry } from './roots.js';
import { LOG_LEVELS, type LogLevel } from './server_log.js';

export type McpTransportKind = 'stdio' | 'sse' | 'streamableHttp' | 'inProcess';

/** A server object of the MCP SDK (`McpServer`, `Server`) in lathe's own process. */
export interface InProcessMcpServer {
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
  isConnected?(): boolean;
}

/** One server of an MCP settings file, validated, with `${VAR}` expanded. */
export interface McpServerConfig {
  name: string;
  transport: McpTransportKind;
  command?: string;
  args: string[];
  cwd?: string;
  env: Record<string, string>;
  url?: string;
  headers: Record<string, string>;
  /** The server itself, for `inProcess` (a program's, given to the SDK's `query()`). */
  server?: InProcessMcpServer;
  /**
   * OAuth for an HTTP server (its entry's `oauth`, `{}` when it has none); absent for stdio, for
   * `"oauth": false` and for an entry that sends its own `Authorization` header.
   */
  oauth?: McpOAuthSettings;
  /** Where its OAuth logins are kept (the documents-root's `mcp-auth/`); no OAuth without it. */
  authFolder?: string;
  /** Tools of this server that run without asking. */
  autoApprove: string[];
  /** The folders the server is told of when it asks for roots (its entry's `roots`; none by default). */
  roots: RootEntry[];
  disabled: boolean;
  /** The least level of logging message asked of the server and kept (its entry's `logLevel`); what it sends when unset. */
  logLevel?: LogLevel;
  /** Per-request timeout in milliseconds (the file says seconds; default 60). */
  timeoutMs: number;
  /** The file it came from (for messages and `lathe mcp remove`). */
  source: string;
}

export interface McpConfig {
  servers: McpServerConfig[];
  /** Workspace servers not started because the folder is not trusted. */
  untrusted: McpServerConfig[];
  /** Problems with single entries: reported; the other servers still load. */
  warnings: string[];
}

export const DEFAULT_TIMEOUT_SECONDS = 60;

/** lathe's own workspace MCP server files, `.agents/mcp/*.json`, in name order. */
export function workspaceMcpFiles(workspace: string): string[] {
  const dir = join(workspace, '.agents', 'mcp');
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => join(dir, f));
  } catch {
    return [];
  }
}

/**
 * Reads an MCP settings file's `mcpServers` (JSONC); a missing file is empty. A file that does
 * not parse, or whose `mcpServers` is not an object, throws a SettingsError naming it.
 */
export function readMcpServers(file: string): Record<string, unknown> {
  const settings = readSettingsObject(file);
  const servers = settings?.mcpServers;
  if (servers === undefined) return {};
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers))
    throw new SettingsError(`${file}: "mcpServers" must be an object of servers by name`);
  return servers as Record<string, unknown>;
}

const TRANSPORTS: Record<string, McpTransportKind> = {
  stdio: 'stdio',
  sse: 'sse',
  streamableHttp: 'streamableHttp',
  'streamable-http': 'streamableHttp',
  http: 'streamableHttp',
};

function stringList(value: unknown): string[] | undefined {
  if (value === undefined) return [];
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;
}

function stringMap(value: unknown): Record<string, string> | undefined {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') return undefined;
    out[k] = String(v);
  }
  return out;
}

/** Validates one server entry; returns the config or the problem with it. */
export function parseServer(
  name: string,
  raw: unknown,
  context: { source: string; workspace: string; env: NodeJS.ProcessEnv },
): McpServerConfig | string {
  const where = `${context.source}: server "${name}"`;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return `${where} must be an object`;
  const entry = raw as Record<string, unknown>;
  const command = entry.command;
  const url = entry.url;
  if (typeof command !== 'string' && typeof url !== 'string') return `${where} needs "command" or "url"`;
  const type = entry.type ?? entry.transportType;
  let transport: McpTransportKind = typeof command === 'string' ? 'stdio' : 'streamableHttp';
  if (type !== undefined) {
    const known = typeof type === 'string' ? TRANSPORTS[type] : undefined;
    if (!known)
      return `${where}: unknown "type" ${JSON.stringify(type)} (use stdio, sse, streamableHttp or http)`;
    transport = known;
  }
  if (transport === 'stdio' && typeof command !== 'string') return `${where}: type stdio needs "command"`;
  if (transport !== 'stdio' && typeof url !== 'string') return `${where}: type ${transport} needs "url"`;
  const args = stringList(entry.args);
  const env = stringMap(entry.env);
  const headers = stringMap(entry.headers);
  const autoApprove = stringList(entry.autoApprove ?? entry.alwaysAllow);
  if (!args) return `${where}: "args" must be a list of strings`;
  if (!env) return `${where}: "env" must be an object of strings`;
  if (!headers) return `${where}: "headers" must be an object of strings`;
  if (!autoApprove) return `${where}: "autoApprove" must be a list of tool names`;
  const timeout = entry.timeout ?? DEFAULT_TIMEOUT_SECONDS;
  if (typeof timeout !== 'number' || !(timeout > 0))
    return `${where}: "timeout" must be a positive number of seconds`;
  if (entry.cwd !== undefined && typeof entry.cwd !== 'string') return `${where}: "cwd" must be a string`;
  const logLevel = entry.logLevel;
  if (logLevel !== undefined && !LOG_LEVELS.includes(logLevel as LogLevel))
    return `${where}: "logLevel" must be one of ${LOG_LEVELS.join(', ')}`;

  const missing = new Set<string>();
  const expand = (text: string) => expandVariables(text, context.env, missing);
  const roots = parseRoots(entry.roots, context.workspace, expand);
  if (typeof roots === 'string') return `${where}: ${roots}`;
  const config: McpServerConfig = {
    name,
    transport,
    args: transport === 'stdio' ? args.map(expand) : [],
    env: Object.fromEntries(Object.entries(env).map(([k, v]) => [k, expand(v)])),
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, expand(v)])),
    autoApprove,
    roots,
    disabled: entry.disabled === true,
    ...(logLevel ? { logLevel: logLevel as LogLevel } : {}),
    timeoutMs: Math.round(timeout * 1000),
    source: context.source,
  };
  if (transport === 'stdio') {
    config.command = expand(command as string);
    if (typeof entry.cwd === 'string') {
      const cwd = expand(entry.cwd);
      config.cwd = isAbsolute(cwd) ? cwd : resolve(context.workspace, cwd);
    }
  } else {
    config.url = expand(url as string);
    try {
      new URL(config.url);
    } catch {
      return `${where}: "url" ${JSON.stringify(config.url)} is not a URL`;
    }
    const oauth = parseOAuthSettings(entry.oauth, config.headers, expand);
    if (typeof oauth === 'string') return `${where}: ${oauth}`;
    if (oauth) config.oauth = oauth;
  }
  if (missing.size > 0 && !config.disabled) {
    return `${where} uses unset environment variable${missing.size > 1 ? 's' : ''} ${[...missing].join(', ')}; set ${missing.size > 1 ? 'them' : 'it'} or give a default with \${NAME:-default}`;
  }
  return config;
}

/** An environment in which `${NAME}` expands to itself. */
const AS_WRITTEN: NodeJS.ProcessEnv = new Proxy(
  {},
  { get: (_target, name) => (typeof name === 'string' ? `\${${name}}` : undefined) },
);

/** Every workspace MCP file: the project `.mcp.json` other agents write, then `.agents/mcp/*.json`. */
export function workspaceMcpSources(workspace: string): string[] {
  return [projectMcpJsonPath(workspace), ...workspaceMcpFiles(workspace)];
}

/**
 * The MCP servers: documents-root `settings/mcp_settings.json`, then the workspace's
 * `.mcp.json` and every `.agents/mcp/*.json`; a later file's server replaces an earlier one of
 * the same name, so the workspace wins. Until the folder is trusted, workspace servers are not
 * loaded but listed in `untrusted` (a global server of the same name stays). A file that does
 * not parse throws a SettingsError; an invalid entry is a warning and skipped.
 */
export function loadMcpConfig(options: {
  documentsRoot: string;
  workspace: string;
  workspaceTrusted: boolean;
  env?: NodeJS.ProcessEnv;
}): McpConfig {
  const env = options.env ?? process.env;
  const warnings: string[] = [];
  const byName = new Map<string, McpServerConfig>();
  const untrusted = new Map<string, McpServerConfig>();
  const read = (file: string, trusted: boolean) => {
    const into = trusted ? byName : untrusted;
    // Servers that will not start are shown as written: nothing of the environment (a token
    // in `${VAR}`) is expanded into a listing, and an entry's problems wait for trust.
    const context = { source: file, workspace: options.workspace, env: trusted ? env : AS_WRITTEN };
    for (const [name, raw] of Object.entries(readMcpServers(file))) {
      const parsed = parseServer(name, raw, context);
      if (typeof parsed === 'string') {
        if (trusted) warnings.push(parsed);
        into.delete(name);
      } else {
        // Logins are the user's: kept in the documents-root, never in the workspace.
        if (parsed.oauth) parsed.authFolder = mcpAuthFolder(options.documentsRoot);
        into.set(name, parsed);
      }
    }
  };
  read(globalMcpSettingsPath(options.documentsRoot), true);
  for (const file of workspaceMcpSources(options.workspace)) read(file, options.workspaceTrusted);
  return {
    servers: [...byName.values()],
    untrusted: [...untrusted.values()].filter((s) => !s.disabled),
    warnings,
  };
}

/** How an untrusted workspace server is named to the user: its file and all of what it would run. */
export function describeServer(
  server: McpServerConfig,
  workspace: string,
): {
  name: string;
  file: string;
  command: string;
} {
  const file = relative(workspace, server.source) || server.source;
  const command = server.command ? [server.command, ...server.args].join(' ') : (server.url ?? '');
  return { name: server.name, file, command };
}
