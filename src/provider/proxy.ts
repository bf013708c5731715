/** The first of these variables that is set and not empty (an empty one does not hide the next). */
function firstSet(env: NodeJS.ProcessEnv, names: string[]): string | undefined {
  return names.map((name) => env[name]).find((value) => value !== undefined && value !== '');
}

/** The proxy settings of the environment, in both spellings that tools use. */
export function environmentProxy(env: NodeJS.ProcessEnv = process.env) {
  const httpProxy = firstSet(env, ['http_proxy', 'HTTP_PROXY']);
  return {
    httpProxy,
    // An https request takes HTTP_PROXY when no HTTPS_PROXY is set, as curl does.
    httpsProxy: firstSet(env, ['https_proxy', 'HTTPS_PROXY']) ?? httpProxy,
    noProxy: firstSet(env, ['no_proxy', 'NO_PROXY']),
  };
}

export function proxyConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return environmentProxy(env).httpsProxy !== undefined;
}

/**
 * Sends every request made with fetch (model providers, MCP HTTP servers, endpoint checks)
 * through the proxy HTTPS_PROXY / HTTP_PROXY name, except hosts NO_PROXY lists. undici is
 * loaded only when a proxy is set, so start-up without one pays nothing.
 */
export async function routeThroughEnvironmentProxy(): Promise<boolean> {
  const proxy = environmentProxy(process.env);
  if (proxy.httpsProxy === undefined) return false;
  const { EnvHttpProxyAgent, setGlobalDispatcher } = await import('undici');
  // undici calls the agent experimental on stderr; the user asked for the proxy, not for that line.
  const emitWarning = process.emitWarning;
  process.emitWarning = () => {};
  try {
    // Empty strings, not undefined: undici would otherwise read the variables itself.
    setGlobalDispatcher(
      new EnvHttpProxyAgent({
        httpProxy: proxy.httpProxy ?? '',
        httpsProxy: proxy.httpsProxy,
        noProxy: proxy.noProxy ?? '',
      }),
    );
  } finally {
    process.emitWarning = emitWarning;
  }
  return true;
}
