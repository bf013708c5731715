import { createInterface } from 'node:readline';
import type { McpServerConfig } from '../config.js';
import { openHttpTransport } from '../transport.js';
import { canOpenBrowser, openBrowser } from './browser.js';
import { describeLoginFailure } from './describe.js';
import { LoginError } from './errors.js';
import { AuthFetch } from './fetch.js';
import { LoopbackRedirect, pastedRedirect } from './loopback.js';
import { LatheOAuthProvider } from './provider.js';
import { readLogin } from './store.js';

export interface LoginOptions {
  /** Print the link and read the pasted redirect, even where a browser could open. */
  noBrowser?: boolean;
  /** The whole login, the time in the browser included. */
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
  /** Talks to the user (stderr): the link, what to paste. */
  say(line: string): void;
  /** Where a pasted redirect is read from when no browser opens (stdin). */
  input: NodeJS.ReadableStream;
  clientVersion?: string;
}

export interface LoginResult {
  /** False when the server answered without asking for a login (nothing was stored). */
  asked: boolean;
  tools: string[];
}

/** Connects once: returns the tools, or the code of an authorization the connect asked for. */
async function connectOnce(
  config: McpServerConfig,
  provider: LatheOAuthProvider,
  fetcher: AuthFetch,
  context: { version: string; timeoutMs: number },
): Promise<{ tools: string[] } | { code: string; finish(code: string): Promise<void> }> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const transport = await openHttpTransport(config, { authProvider: provider, fetch: fetcher.fetch });
  const client = new Client({ name: 'lathe', version: context.version }, { capabilities: {} });
  // A request that meets a 401 waits for the user in the browser: it gets the whole login's time.
  const timeout = context.timeoutMs;
  try {
    await client.connect(transport, { timeout });
    const tools: string[] = [];
    if (client.getServerCapabilities()?.tools) {
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : undefined, { timeout });
        tools.push(...page.tools.map((t) => t.name));
        cursor = page.nextCursor;
      } while (cursor);
    }
    return { tools };
  } catch (error) {
    const code = provider.takeCode();
    if (!code) throw error;
    // The code is exchanged on this transport: it knows the challenge (resource metadata, scope).
    return { code, finish: (c) => transport.finishAuth(c) };
  } finally {
    await client.close().catch(() => {});
  }
}

/** Reads pasted redirect addresses until the wait settles. */
function readPasted(options: LoginOptions, redirect: LoopbackRedirect, settled: Promise<unknown>): void {
  const lines = createInterface({ input: options.input, terminal: false });
  lines.on('line', (line) => {
    const params = pastedRedirect(line);
    if (params) redirect.receive(params);
    else if (line.trim())
      options.say(
        `That is not the address of the redirect; paste all of it (it starts with ${redirect.url}).`,
      );
  });
  void settled.catch(() => {}).finally(() => lines.close());
}

/** Sends the user to the authorization page: their browser, or a link to open and a redirect to paste. */
async function sendUser(
  config: McpServerConfig,
  options: LoginOptions,
  redirect: LoopbackRedirect,
  url: URL,
  state: string,
): Promise<string> {
  const waiting = redirect.wait(state);
  const browser = !options.noBrowser && canOpenBrowser(options.env);
  if (browser) {
    options.say(
      `Opening the browser to log in to MCP server "${config.name}"; if it does not open, visit:\n  ${url.href}`,
    );
    if (await openBrowser(url.href, options.env)) return waiting;
  } else {
    options.say(`To log in to MCP server "${config.name}", open this address in a browser:\n  ${url.href}`);
  }
  options.say(
    `Once you have allowed it, the browser goes to ${redirect.url}?… (a page that may not load on this machine): paste that whole address here and press Enter.`,
  );
  readPasted(options, redirect, waiting);
  return waiting;
}

/** The loopback port: the settings', else the one the stored registration names, else any free one. */
async function listenForRedirect(config: McpServerConfig): Promise<LoopbackRedirect> {
  const fixed = config.oauth?.callbackPort;
  if (fixed) {
    return LoopbackRedirect.listen(fixed).catch(() => {
      throw new LoginError(`port ${fixed} ("oauth.callbackPort") is in use; free it or choose another`);
    });
  }
  const client = readLogin(config.authFolder!, config.url!)?.client as
    | { redirect_uris?: string[] }
    | undefined;
  const stored = Number(new URL(client?.redirect_uris?.[0] ?? 'http://127.0.0.1:0').port || 0);
  // A taken port only means registering anew (the provider ignores a registration for another redirect).
  return LoopbackRedirect.listen(stored).catch(() => LoopbackRedirect.listen(0));
}

/**
 * `lathe mcp login`: connects to the server with a fresh login (the stored one is not used), lets
 * the SDK discover its authorization server, register lathe and build the authorization URL,
 * sends the user there, takes the redirect on 127.0.0.1, exchanges the code and lists the tools.
 * Every request and the whole login are bounded; a failure is one line and stores nothing.
 */
export async function loginToServer(config: McpServerConfig, options: LoginOptions): Promise<LoginResult> {
  if (!config.url || !config.oauth || !config.authFolder) {
    throw new LoginError(
      config.url
        ? 'its entry turns OAuth off ("oauth": false, or an Authorization header of its own)'
        : 'it is not an HTTP server; only HTTP servers log in',
    );
  }
  const redirect = await listenForRedirect(config);
  let provider: LatheOAuthProvider | undefined;
  const fetcher = new AuthFetch({
    requestTimeoutMs: Math.min(config.timeoutMs, options.timeoutMs),
    onScopeChallenge: (scope) => provider?.requireScope(scope),
  });
  provider = new LatheOAuthProvider({
    server: config.name,
    serverUrl: config.url,
    folder: config.authFolder,
    settings: config.oauth,
    authorizer: {
      redirectUrl: redirect.url,
      authorize: (url, state) => sendUser(config, options, redirect, url, state),
    },
  });
  const login = provider;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const what = fetcher.waitingFor
        ? `${fetcher.waitingFor} did not answer`
        : 'no redirect came back from the browser';
      reject(new LoginError(`the login did not finish within ${options.timeoutMs / 1000} s: ${what}`));
    }, options.timeoutMs);
  });
  const dance = async (): Promise<LoginResult> => {
    for (;;) {
      const outcome = await connectOnce(config, login, fetcher, {
        version: options.clientVersion ?? '0',
        timeoutMs: options.timeoutMs,
      });
      if ('tools' in outcome) return { asked: login.authorizations > 0, tools: outcome.tools };
      await outcome.finish(outcome.code);
    }
  };
  try {
    return await Promise.race([dance(), deadline]);
  } catch (error) {
    // A step still under way (a request past the deadline) must not store what it gets later.
    login.abandon();
    throw new LoginError(describeLoginFailure(error, fetcher));
  } finally {
    clearTimeout(timer);
    await redirect.close();
  }
}
