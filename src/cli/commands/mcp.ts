import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isFolderTrusted } from '../../config/trust.js';
import { loadMcpConfig, type McpServerConfig, parseServer } from '../../mcp/config.js';
import { mcpFileFor, removeServerEntry, writeServerEntry } from '../../mcp/config_file.js';
import { runtimePlaces } from '../../runtime/create_runtime.js';
import { type CommonOptions, runtimeFromOptions } from './runtime_from_options.js';

export interface McpOptions extends CommonOptions {
  http?: string;
  url?: string;
  type?: string;
  header?: string[];
  env?: string[];
  timeout?: string;
  autoApprove?: string[];
  workspace?: boolean;
  /** `mcp login`: print the link and read the pasted redirect instead of opening a browser. */
  browser?: boolean;
  /** `mcp import`: the program whose settings are read, where to write, and whether to replace. */
  from?: string;
  scope?: string;
  force?: boolean;
}

const out = (text: string) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
const fail = (text: string) => {
  process.stderr.write(`lathe: ${text}\n`);
  return 1;
};

/** The package version, found by walking up from this file (bundled or not). */
function latheVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++, dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'lathe' && pkg.version) return pkg.version;
    } catch {
      // not here; look further up
    }
  }
  return '0.0.0';
}

/** `lathe mcp serve`: lathe's tool pool as an MCP server, over stdio or (with --http PORT) HTTP. */
async function serve(opts: McpOptions): Promise<number> {
  const runtime = runtimeFromOptions(opts);
  const version = latheVersion();
  // Served commands are refused when the sandbox is unavailable: say so where the server starts.
  void runtime.sandboxNotice().then((line) => line && process.stderr.write(`lathe: ${line}\n`));
  if (opts.http === undefined) {
    const { serveStdio } = await import('../../mcp/server.js');
    await serveStdio(runtime, version);
    // Commands, tasks and schedules that served tools started end with the server.
    await runtime.dispose();
    return 0;
  }
  const port = Number(opts.http);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    return fail(`--http needs a port number, not "${opts.http}"`);
  const { serveHttp } = await import('../../mcp/http_server.js');
  const serving = await serveHttp(runtime, {
    port,
    version,
    token: process.env.LATHE_MCP_TOKEN,
    log: (line) => process.stderr.write(`lathe: ${line}\n`),
  });
  out(`lathe MCP server: ${serving.url}\nAuthorization: Bearer ${serving.token}`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await serving.close();
  await runtime.dispose();
  return 0;
}

/** Where the servers come from; workspace files count only in a trusted folder (or with --trust). */
function places(opts: McpOptions) {
  const { documentsRoot, workspace } = runtimePlaces({ cwd: opts.cwd });
  const workspaceTrusted = opts.trust === true || isFolderTrusted(documentsRoot, workspace);
  const config = loadMcpConfig({ documentsRoot, workspace, workspaceTrusted });
  for (const warning of config.warnings) process.stderr.write(`lathe: warning: ${warning}\n`);
  return { documentsRoot, workspace, config };
}

const NOT_TRUSTED = 'not started: folder not trusted';

/** `lathe mcp list`: every configured server, connected in parallel, with its state and tool count. */
async function list(opts: McpOptions): Promise<number> {
  const { config, workspace } = places(opts);
  if (config.servers.length === 0 && config.untrusted.length === 0) {
    out(opts.json ? '[]' : 'No MCP servers configured. Add one with: lathe mcp add NAME -- COMMAND ARGS…');
    return 0;
  }
  const { probeServer } = await import('../../mcp/probe.js');
  const { authState, authStateText } = await import('../../mcp/auth/state.js');
  // The auth state is read after the probe: a probe is what finds a server that needs a login.
  const probes = await Promise.all(
    config.servers.map(async (s) => ({
      ...(await probeServer(s, { workspace })),
      auth: authStateText(authState(s)),
    })),
  );
  const untrusted = config.untrusted.map((s) => ({
    name: s.name,
    transport: s.transport,
    state: 'not started',
    reason: 'folder not trusted',
    tools: [],
    auth: '-',
    source: s.source,
  }));
  if (opts.json) {
    out(JSON.stringify([...probes, ...untrusted], null, 2));
    return 0;
  }
  const rows = [
    ...probes.map((p) => [
      p.name,
      p.transport,
      p.state === 'connected' ? `connected (${Math.round(p.connectMs ?? 0)} ms)` : p.state,
      p.state === 'connected' ? String(p.tools.length) : '-',
      p.auth,
      p.source,
    ]),
    ...untrusted.map((u) => [u.name, u.transport, NOT_TRUSTED, '-', '-', u.source]),
  ];
  const header = ['server', 'transport', 'status', 'tools', 'auth', 'source'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i < cells.length - 1 ? c.padEnd(widths[i]) : c))
      .join('  ')
      .trimEnd();
  const lines = [line(header), ...rows.map(line)];
  for (const p of probes) if (p.error) lines.push(`  ${p.name}: ${p.error}`);
  if (untrusted.length > 0)
    lines.push('Trust this folder to start its servers: lathe trust (or pass --trust)');
  out(lines.join('\n'));
  return 0;
}

function pairs(
  values: string[] | undefined,
  separator: RegExp,
  what: string,
): Record<string, string> | string {
  const result: Record<string, string> = {};
  for (const value of values ?? []) {
    const match = separator.exec(value);
    if (!match || match.index === 0) return `${what} "${value}" is not of the form KEY=VALUE`;
    result[value.slice(0, match.index).trim()] = value.slice(match.index + match[0].length).trim();
  }
  return result;
}

/** Server names become tool-name prefixes (`name__tool`) and file names: keep them plain. */
const SERVER_NAME = /^[A-Za-z0-9_-]+$/;
const suggestName = (name: string) =>
  name.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '') || 'my_server';

/** `lathe mcp add NAME -- CMD ARGS…` or `lathe mcp add NAME --url URL`. */
async function add(name: string | undefined, command: string[], opts: McpOptions): Promise<number> {
  if (!name) return fail('mcp add needs a server name');
  if (!SERVER_NAME.test(name)) {
    process.stderr.write(
      `lathe: MCP server name "${name}" may hold only A-Z, a-z, 0-9, _ and - (e.g. ${suggestName(name)})\n`,
    );
    return 2;
  }
  if (!opts.url && command.length === 0) return fail('mcp add needs a command (after --) or --url URL');
  if (opts.url && command.length > 0) return fail('mcp add takes a command or --url, not both');
  const env = pairs(opts.env, /=/, '--env');
  const headers = pairs(opts.header, /\s*[:=]\s*/, '--header');
  if (typeof env === 'string') return fail(env);
  if (typeof headers === 'string') return fail(headers);
  const entry: Record<string, unknown> = opts.url
    ? {
        ...(opts.type ? { type: opts.type } : {}),
        url: opts.url,
        ...(Object.keys(headers).length ? { headers } : {}),
      }
    : { command: command[0], args: command.slice(1), ...(Object.keys(env).length ? { env } : {}) };
  if (opts.timeout !== undefined) entry.timeout = Number(opts.timeout);
  if (opts.autoApprove?.length) entry.autoApprove = opts.autoApprove;
  const where = places(opts);
  const file = mcpFileFor(opts.workspace ? 'workspace' : 'global', name, where);
  // Validated as loading would, but without expanding ${VARS} that are set only at run time.
  const checked = parseServer(name, entry, {
    source: file,
    workspace: where.workspace,
    env: { ...process.env },
  });
  if (typeof checked === 'string' && !checked.includes('unset environment variable')) return fail(checked);
  try {
    const replaced = writeServerEntry(file, name, entry);
    out(
      `${replaced ? 'Replaced' : 'Added'} MCP server "${name}" in ${file}. Check it with: lathe mcp test ${name}`,
    );
    if (opts.workspace && !isFolderTrusted(where.documentsRoot, where.workspace))
      out('This folder is not trusted: its servers start once you run `lathe trust`.');
    return 0;
  } catch (error) {
    return fail((error as Error).message);
  }
}

async function remove(name: string | undefined, opts: McpOptions): Promise<number> {
  if (!name) return fail('mcp remove needs a server name');
  const where = places(opts);
  try {
    const files = removeServerEntry(name, where);
    if (files.length === 0) {
      const known = where.config.servers.map((s) => s.name);
      return fail(`no MCP server "${name}"${known.length ? ` (configured: ${known.join(', ')})` : ''}`);
    }
    out(files.map((f) => `Removed MCP server "${name}" from ${f}.`).join('\n'));
    return 0;
  } catch (error) {
    return fail((error as Error).message);
  }
}

/** The configured server a command names, or the exit code of saying why there is none. */
function namedServer(
  name: string | undefined,
  verb: string,
  opts: McpOptions,
): { server: McpServerConfig; workspace: string } | number {
  if (!name) return fail(`mcp ${verb} needs a server name`);
  const { config, workspace } = places(opts);
  const server = config.servers.find((s) => s.name === name);
  if (!server && config.untrusted.some((s) => s.name === name)) {
    return fail(`MCP server "${name}" is ${NOT_TRUSTED}; run \`lathe trust\` or pass --trust`);
  }
  if (!server) {
    const known = config.servers.map((s) => s.name);
    return fail(
      `no MCP server "${name}"${known.length ? ` (configured: ${known.join(', ')})` : ' is configured'}`,
    );
  }
  return { server, workspace };
}

/** `lathe mcp test NAME`: connect, list the tools, time a round trip. */
async function test(name: string | undefined, opts: McpOptions): Promise<number> {
  const found = namedServer(name, 'test', opts);
  if (typeof found === 'number') return found;
  const { server, workspace } = found;
  const { probeServer } = await import('../../mcp/probe.js');
  const probe = await probeServer({ ...server, disabled: false }, { roundTrips: true, workspace });
  if (opts.json) {
    out(JSON.stringify(probe, null, 2));
    return probe.state === 'connected' ? 0 : 1;
  }
  if (probe.state !== 'connected') return fail(`MCP server "${name}" failed: ${probe.error}`);
  out(
    [
      `MCP server "${name}" (${probe.transport}) connected in ${Math.round(probe.connectMs ?? 0)} ms`,
      `${probe.tools.length} tools: ${probe.tools.join(', ')}`,
      `round trip (ping, median of 5): ${(probe.roundTripMs ?? 0).toFixed(2)} ms`,
      ...(server.disabled ? ['(disabled in its settings: lathe does not start it)'] : []),
    ].join('\n'),
  );
  return 0;
}

async function loginOrOut(sub: 'login' | 'logout', name: string | undefined, opts: McpOptions) {
  const found = namedServer(name, sub, opts);
  if (typeof found === 'number') return found;
  const { loginCommand, logoutCommand } = await import('./mcp_login.js');
  if (sub === 'logout') return logoutCommand(found.server, { out, fail });
  return loginCommand(found.server, {
    noBrowser: opts.browser === false,
    timeout: opts.timeout,
    version: latheVersion(),
    out,
    fail,
  });
}

export type McpSubcommand = 'serve' | 'list' | 'add' | 'remove' | 'test' | 'login' | 'logout' | 'import';

export async function mcpCommand(
  sub: McpSubcommand,
  args: { name?: string; command?: string[] },
  opts: McpOptions,
): Promise<number> {
  switch (sub) {
    case 'serve':
      return serve(opts);
    case 'list':
      return list(opts);
    case 'add':
      return add(args.name, args.command ?? [], opts);
    case 'remove':
      return remove(args.name, opts);
    case 'test':
      return test(args.name, opts);
    case 'login':
    case 'logout':
      return loginOrOut(sub, args.name, opts);
    case 'import':
      return (await import('./mcp_import.js')).importCommand(opts, { out, fail });
  }
}
