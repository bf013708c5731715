import { randomUUID } from 'node:crypto';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import { InvalidGrantError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type {
  AuthorizationParams,
  OAuthServerProvider,
} from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/** What `authorize` needs of the answer (express's, whose types lathe does not carry). */
interface Redirecting {
  redirect(status: number, url: string): void;
}

interface Grant {
  clientId: string;
  scopes: string[];
  resource?: string;
}

/**
 * An authorization server's state, kept in memory: it approves every authorization at once (the
 * user said yes) and records what it was asked, so tests can check what lathe sent.
 */
export class MemoryOAuthProvider implements OAuthServerProvider {
  readonly clients = new Map<string, OAuthClientInformationFull>();
  readonly registrations: OAuthClientInformationFull[] = [];
  readonly authorizations: AuthorizationParams[] = [];
  readonly codeExchanges: Array<{ clientId: string; resource?: string }> = [];
  readonly refreshes: Array<{ clientId: string; resource?: string }> = [];
  private readonly codes = new Map<
    string,
    { client: OAuthClientInformationFull; params: AuthorizationParams }
  >();
  private readonly access = new Map<string, Grant>();
  private readonly refreshTokens = new Map<string, Grant>();
  /** Seconds an access token is said to last. */
  tokenLifetime = 3600;

  readonly clientsStore: OAuthRegisteredClientsStore = {
    getClient: async (id) => this.clients.get(id),
    registerClient: async (client) => {
      const full = client as OAuthClientInformationFull;
      this.clients.set(full.client_id, full);
      this.registrations.push(full);
      return full;
    },
  };

  async authorize(
    client: OAuthClientInformationFull,
    params: AuthorizationParams,
    res: Redirecting,
  ): Promise<void> {
    this.authorizations.push(params);
    const code = randomUUID();
    this.codes.set(code, { client, params });
    const target = new URL(params.redirectUri);
    target.searchParams.set('code', code);
    if (params.state !== undefined) target.searchParams.set('state', params.state);
    res.redirect(302, target.href);
  }

  async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string): Promise<string> {
    const entry = this.codes.get(code);
    if (!entry) throw new InvalidGrantError('unknown authorization code');
    return entry.params.codeChallenge;
  }

  async exchangeAuthorizationCode(
    client: OAuthClientInformationFull,
    code: string,
    _verifier?: string,
    _redirectUri?: string,
    resource?: URL,
  ): Promise<OAuthTokens> {
    const entry = this.codes.get(code);
    if (!entry || entry.client.client_id !== client.client_id)
      throw new InvalidGrantError('unknown authorization code');
    this.codes.delete(code);
    this.codeExchanges.push({ clientId: client.client_id, resource: resource?.href });
    return this.issue({
      clientId: client.client_id,
      scopes: entry.params.scopes ?? [],
      resource: resource?.href,
    });
  }

  async exchangeRefreshToken(
    client: OAuthClientInformationFull,
    refreshToken: string,
    _scopes?: string[],
    resource?: URL,
  ): Promise<OAuthTokens> {
    const grant = this.refreshTokens.get(refreshToken);
    if (!grant || grant.clientId !== client.client_id)
      throw new InvalidGrantError('refresh token is expired or revoked');
    this.refreshTokens.delete(refreshToken);
    this.refreshes.push({ clientId: client.client_id, resource: resource?.href });
    return this.issue(grant);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const grant = this.access.get(token);
    if (!grant) throw new InvalidTokenError('the access token is expired or revoked');
    return {
      token,
      clientId: grant.clientId,
      scopes: grant.scopes,
      expiresAt: Math.floor(Date.now() / 1000) + this.tokenLifetime,
      ...(grant.resource ? { resource: new URL(grant.resource) } : {}),
    };
  }

  /** Every access token stops working (as when they run out); refresh tokens still do. */
  expireAccessTokens(): void {
    this.access.clear();
  }

  /** Every token stops working: the user revoked lathe's access. */
  revokeAll(): void {
    this.access.clear();
    this.refreshTokens.clear();
  }

  private issue(grant: Grant): OAuthTokens {
    const accessToken = `at-${randomUUID()}`;
    const refreshToken = `rt-${randomUUID()}`;
    this.access.set(accessToken, grant);
    this.refreshTokens.set(refreshToken, grant);
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: this.tokenLifetime,
      refresh_token: refreshToken,
      scope: grant.scopes.join(' '),
    };
  }
}
