import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { HttpAuth } from './auth/session.js';
import type { McpServerConfig } from './config.js';

/** How long a stdio server gets to exit on its own once its input is closed. */
const EXIT_GRACE_MS = 300;
/** The last few KB a stdio server wrote to stderr: what it said before it failed. */
const STDERR_TAIL = 4_000;

export interface OpenedTransport {
  transport: Transport;
  /** What the server last wrote to stderr (stdio only). */
  stderrTail(): string;
  /** The server's process id (stdio only), to end it when it does not end by itself. */
  pid(): number | null;
}

function environment(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return { ...env, ...extra };
}

/**
 * Opens the transport a server's config asks for. The SDK's modules are imported here, on
 * first use, so nothing of MCP loads when no server is configured.
 */
export async function openTransport(config: McpServerConfig): Promise<OpenedTransport> {
  if (config.transport === 'inProcess' && config.server) {
    const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
    const [client, server] = InMemoryTransport.createLinkedPair();
    // A server object takes one transport at a time: a reconnect closes the last one first.
    if (config.server.isConnected?.()) await config.server.close();
    await config.server.connect(server);
    return { transport: client, stderrTail: () => '', pid: () => null };
  }
  if (config.transport === 'stdio') {
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    // A stdio server gets lathe's environment (as a shell would) plus its own `env`.
    const transport = new StdioClientTransport({
      command: config.command!,
      args: config.args,
      cwd: config.cwd,
      env: environment(config.env),
      stderr: 'pipe',
    });
    let tail = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      tail = (tail + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    return { transport, stderrTail: () => tail.trim(), pid: () => transport.pid };
  }
  // An HTTP server may ask for an OAuth login: the session's provider reads the stored one.
  const auth =
    config.oauth && config.authFolder ? (await import('./auth/session.js')).sessionAuth(config) : undefined;
  return { transport: await openHttpTransport(config, auth), stderrTail: () => '', pid: () => null };
}

/** A transport that can finish an OAuth authorization (both HTTP transports can). */
export type HttpTransport = Transport & { finishAuth(code: string): Promise<void> };

/** The SSE or streamable-HTTP transport of a server's config, authorized by `auth` when given. */
export async function openHttpTransport(config: McpServerConfig, auth?: HttpAuth): Promise<HttpTransport> {
  const url = new URL(config.url!);
  const options = { requestInit: { headers: config.headers }, ...auth };
  if (config.transport === 'sse') {
    const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js');
    return new SSEClientTransport(url, options);
  }
  const { StreamableHTTPClientTransport } = await import(
    '@modelcontextprotocol/sdk/client/streamableHttp.js'
  );
  return new StreamableHTTPClientTransport(url, options);
}

/**
 * Closes a transport (through its client when there is one, which also ends the session of an
 * HTTP server). A stdio server whose input is closed should exit; one that lingers gets SIGTERM.
 */
export async function closeTransport(
  opened: OpenedTransport | undefined,
  client?: { close(): Promise<void> },
): Promise<void> {
  if (!opened) return;
  const pid = opened.pid();
  const timer =
    pid === null
      ? undefined
      : setTimeout(() => {
          try {
            process.kill(pid, 'SIGTERM');
          } catch {
            // already gone
          }
        }, EXIT_GRACE_MS);
  try {
    const transport = opened.transport as { terminateSession?: () => Promise<void>; sessionId?: string };
    if (transport.sessionId && transport.terminateSession) await transport.terminateSession().catch(() => {});
    if (client) await client.close();
    else await opened.transport.close();
  } catch {
    // A broken transport may fail to close; a lingering process still gets its SIGTERM.
  } finally {
    clearTimeout(timer);
  }
}
