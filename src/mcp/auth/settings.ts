/** What a server's entry says of its OAuth client (`"oauth": { … }`); every field optional. */
export interface McpOAuthSettings {
  /** A client registered with the authorization server beforehand (no dynamic registration). */
  clientId?: string;
  clientSecret?: string;
  /** Scopes to ask for when neither the server's challenge nor its metadata names any. */
  scope?: string;
  /** The loopback port the redirect comes back to (a pre-registered redirect URI fixes it). */
  callbackPort?: number;
  /** An HTTPS URL of a client ID metadata document, used where the server accepts one. */
  clientMetadataUrl?: string;
}

const FIELDS = ['clientId', 'clientSecret', 'scope', 'callbackPort', 'clientMetadataUrl'];

/**
 * Validates an entry's `oauth`: undefined means OAuth on with defaults, `false` means off, and
 * so does an `Authorization` header of the entry's own (it would override the token anyway).
 * Returns the settings, undefined when off, or the problem with the value.
 */
export function parseOAuthSettings(
  raw: unknown,
  headers: Record<string, string>,
  expand: (text: string) => string,
): McpOAuthSettings | undefined | string {
  if (raw === false) return undefined;
  if (Object.keys(headers).some((h) => h.toLowerCase() === 'authorization')) return undefined;
  if (raw === undefined || raw === true) return {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return '"oauth" must be an object (clientId, clientSecret, scope, callbackPort, clientMetadataUrl) or false';
  const entry = raw as Record<string, unknown>;
  const unknown = Object.keys(entry).filter((k) => !FIELDS.includes(k));
  if (unknown.length > 0) return `"oauth" has unknown field ${unknown.map((k) => `"${k}"`).join(', ')}`;
  const settings: McpOAuthSettings = {};
  for (const key of ['clientId', 'clientSecret', 'scope', 'clientMetadataUrl'] as const) {
    const value = entry[key];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value === '') return `"oauth.${key}" must be a non-empty string`;
    settings[key] = expand(value);
  }
  const port = entry.callbackPort;
  if (port !== undefined) {
    if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65_535)
      return '"oauth.callbackPort" must be a port number (1-65535)';
    settings.callbackPort = port;
  }
  if (settings.clientSecret && !settings.clientId) return '"oauth.clientSecret" needs "oauth.clientId"';
  if (settings.clientMetadataUrl && !isHttpsDocumentUrl(settings.clientMetadataUrl))
    return '"oauth.clientMetadataUrl" must be an https URL with a path';
  return settings;
}

function isHttpsDocumentUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.pathname !== '/';
  } catch {
    return false;
  }
}
