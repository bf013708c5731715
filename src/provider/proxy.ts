/** The variables a proxy is named by, in both spellings that tools use. */
const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];

export function proxyConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return PROXY_VARIABLES.some((name) => (env[name] ?? '') !== '');
}

/**
 * Sends every request made with fetch (model providers, MCP HTTP servers, endpoint checks)
 * through the proxy HTTPS_PROXY / HTTP_PROXY name, except hosts NO_PROXY lists. undici is
 * loaded only when a proxy is set, so start-up without one pays nothing.
 */
export async function routeThroughEnvironmentProxy(): Promise<boolean> {
  if (!proxyConfigured(process.env)) return false;
  const { EnvHttpProxyAgent, setGlobalDispatcher } = await import('undici');
  setGlobalDispatcher(new EnvHttpProxyAgent());
  return true;
}
