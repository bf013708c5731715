import type { McpServerConfig } from '../../mcp/config.js';

/** How long a login may take, the time in the browser included, unless --timeout says. */
const LOGIN_TIMEOUT_S = 300;

export interface LoginCommandOptions {
  noBrowser?: boolean;
  timeout?: string;
  version: string;
  out(text: string): void;
  fail(text: string): number;
}

/** `lathe mcp login NAME`: the OAuth dance with the server's authorization server, then its tools. */
export async function loginCommand(server: McpServerConfig, opts: LoginCommandOptions): Promise<number> {
  const seconds = opts.timeout === undefined ? LOGIN_TIMEOUT_S : Number(opts.timeout);
  if (!Number.isFinite(seconds) || seconds <= 0)
    return opts.fail(`--timeout needs a number of seconds, not "${opts.timeout}"`);
  const { loginToServer } = await import('../../mcp/auth/login.js');
  try {
    const result = await loginToServer(server, {
      noBrowser: opts.noBrowser,
      timeoutMs: seconds * 1000,
      env: process.env,
      say: (line) => process.stderr.write(`${line}\n`),
      input: process.stdin,
      clientVersion: opts.version,
    });
    const tools = `${result.tools.length} tool${result.tools.length === 1 ? '' : 's'}${result.tools.length ? `: ${result.tools.join(', ')}` : ''}`;
    opts.out(
      result.asked
        ? `Logged in to MCP server "${server.name}" (${tools}).`
        : `MCP server "${server.name}" answered without asking for a login; nothing was stored (${tools}).`,
    );
    return 0;
  } catch (error) {
    return opts.fail(
      `login to MCP server "${server.name}" failed: ${(error as Error).message}; nothing was stored`,
    );
  } finally {
    // The pasted-redirect reader may have touched stdin: let the process end.
    process.stdin.pause();
  }
}

/** `lathe mcp logout NAME`: forgets the server's stored login (tokens and registration). */
export async function logoutCommand(
  server: McpServerConfig,
  opts: Pick<LoginCommandOptions, 'out' | 'fail'>,
): Promise<number> {
  if (!server.url || !server.oauth || !server.authFolder)
    return opts.fail(
      `MCP server "${server.name}" does not log in with OAuth; there is nothing to log out of`,
    );
  const { removeLogin } = await import('../../mcp/auth/store.js');
  opts.out(
    removeLogin(server.authFolder, server.url)
      ? `Logged out of MCP server "${server.name}": its stored login is removed.`
      : `MCP server "${server.name}" had no stored login.`,
  );
  return 0;
}
