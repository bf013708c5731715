import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerConfig } from '../config.js';
import { AuthFetch } from './fetch.js';
import { LatheOAuthProvider } from './provider.js';

/** What an HTTP transport authorizes with: lathe's OAuth provider, and the fetch it sends through. */
export interface HttpAuth {
  authProvider: OAuthClientProvider;
  fetch: FetchLike;
}

/**
 * How a session's HTTP transport authorizes: with the stored login, refreshed when it runs out;
 * a 403 `insufficient_scope` is noted so the failure names the scopes a new login must grant.
 */
export function sessionAuth(config: McpServerConfig): HttpAuth {
  const provider = new LatheOAuthProvider({
    server: config.name,
    serverUrl: config.url!,
    folder: config.authFolder!,
    settings: config.oauth ?? {},
  });
  const watched = new AuthFetch({ onScopeChallenge: (scope) => provider.requireScope(scope) });
  return { authProvider: provider, fetch: watched.fetch };
}
