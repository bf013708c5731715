import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { LoginError, type LoginNeed, NeedsLoginError, needsLoginMessage, sameIssuer } from './errors.js';
import type { McpOAuthSettings } from './settings.js';
import { noteNeedsLogin } from './state.js';
import { type LoginRecord, readLogin, removeLogin, writeLogin } from './store.js';

/** The browser side of a login: sends the user to the URL, resolves with the redirect's code. */
export interface Authorizer {
  readonly redirectUrl: string;
  authorize(url: URL, state: string): Promise<string>;
}

export interface ProviderOptions {
  server: string;
  serverUrl: string;
  folder: string;
  settings: McpOAuthSettings;
  /** A login (`lathe mcp login`): may send the user to the browser. A session never does. */
  authorizer?: Authorizer;
}

/** More authorizations than this in one login is a server that never accepts what it gets. */
const MAX_AUTHORIZATIONS = 3;
/** The redirect a session names in its client metadata; it never listens there. */
const UNUSED_REDIRECT = 'http://127.0.0.1/callback';

const scopesOf = (scope: string | undefined) => new Set((scope ?? '').split(' ').filter(Boolean));
const unionScopes = (...scopes: Array<string | undefined>) =>
  [...new Set(scopes.flatMap((s) => [...scopesOf(s)]))].join(' ') || undefined;
const covers = (granted: string | undefined, wanted: string | undefined) =>
  [...scopesOf(wanted)].every((s) => scopesOf(granted).has(s));

/**
 * lathe's OAuth client for one MCP server, as the SDK's `auth()` drives it. A session reads the
 * stored login (refreshing it through the SDK, writing the new tokens back) and, where a new
 * authorization would be needed, fails with the command that does it. A login keeps everything
 * it receives in memory and writes it to disk once, with the tokens: a dance that fails half way
 * stores nothing.
 */
export class LatheOAuthProvider implements OAuthClientProvider {
  /** Login: the code the redirect brought, for the transport's `finishAuth`. */
  private code?: string;
  private verifier?: string;
  private sentState?: string;
  private discovered?: OAuthDiscoveryState;
  private registered?: OAuthClientInformationMixed;
  private received?: OAuthTokens;
  /** Scopes a 403 `insufficient_scope` asked for, not yet granted. */
  private challengeScope?: string;
  private tokensDropped = false;
  private storedClientDropped = false;
  private abandoned = false;
  authorizations = 0;

  constructor(private readonly options: ProviderOptions) {}

  private get login(): boolean {
    return this.options.authorizer !== undefined;
  }

  private stored(): LoginRecord | undefined {
    return readLogin(this.options.folder, this.options.serverUrl);
  }

  private needsLogin(need: LoginNeed, scope?: string): NeedsLoginError {
    noteNeedsLogin(this.options.serverUrl, true);
    return new NeedsLoginError(needsLoginMessage(this.options.server, need, scope));
  }

  /** The login failed: whatever a step still under way receives is not stored. */
  abandon(): void {
    this.abandoned = true;
  }

  /** The code of the last authorization, once: the caller exchanges it. */
  takeCode(): string | undefined {
    const code = this.code;
    this.code = undefined;
    return code;
  }

  /** A 403 asked for these scopes: the next authorization asks for them too. */
  requireScope(scope: string | undefined): void {
    this.challengeScope = unionScopes(this.challengeScope, scope ?? '') ?? this.challengeScope;
  }

  get redirectUrl(): string {
    return this.options.authorizer?.redirectUrl ?? this.storedClient()?.redirect_uris?.[0] ?? UNUSED_REDIRECT;
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.settings.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const { scope } = this.options.settings;
    return {
      client_name: 'lathe',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // A program on the user's machine keeps no secret: a public client, with PKCE.
      token_endpoint_auth_method: 'none',
      ...(scope ? { scope } : {}),
    };
  }

  state(): string {
    this.sentState = randomBytes(24).toString('base64url');
    return this.sentState;
  }

  private preRegistered(): OAuthClientInformationMixed | undefined {
    const { clientId, clientSecret } = this.options.settings;
    return clientId
      ? { client_id: clientId, ...(clientSecret ? { client_secret: clientSecret } : {}) }
      : undefined;
  }

  /** The stored registration, when it is still usable (a login's redirect must be among its URIs). */
  private storedClient(): (OAuthClientInformationMixed & { redirect_uris?: string[] }) | undefined {
    if (this.storedClientDropped) return undefined;
    const client = this.stored()?.client as
      | (OAuthClientInformationMixed & { redirect_uris?: string[] })
      | undefined;
    const redirect = this.options.authorizer?.redirectUrl;
    if (client && redirect && client.redirect_uris && !client.redirect_uris.includes(redirect))
      return undefined;
    return client;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const pre = this.preRegistered();
    if (pre) return pre;
    if (this.login) return this.registered ?? this.storedClient();
    const client = this.storedClient();
    if (!client) throw this.needsLogin('login');
    return client;
  }

  async saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    // A pre-registered client lives in the settings; nothing of it is copied to disk.
    if (info.client_id === this.options.settings.clientId) return;
    if (this.login) {
      this.registered = info;
      return;
    }
    const record = this.stored();
    if (record) await writeLogin(this.options.folder, { ...record, client: info });
  }

  tokens(): OAuthTokens | undefined {
    const tokens = this.login ? this.received : this.tokensDropped ? undefined : this.stored()?.tokens;
    if (!tokens) return undefined;
    // A refresh keeps the granted scopes: a step-up needs a new authorization, not a refresh.
    if (this.challengeScope && !covers(tokens.scope, this.challengeScope)) {
      const { refresh_token: _dropped, ...rest } = tokens;
      return rest;
    }
    return tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    if (this.abandoned) throw new LoginError('the login was stopped');
    const record = this.stored();
    const granted = covers(tokens.scope, unionScopes(record?.stepUpScope, this.challengeScope));
    const next: LoginRecord = {
      serverUrl: this.options.serverUrl,
      client: this.login ? (this.registered ?? this.storedClient()) : record?.client,
      tokens,
      obtainedAt: Date.now(),
      discovery: this.discovered ?? record?.discovery,
      ...(granted || !record?.stepUpScope ? {} : { stepUpScope: record.stepUpScope }),
    };
    if (!next.client) delete next.client;
    await writeLogin(this.options.folder, next);
    if (this.login) this.received = tokens;
    if (granted) this.challengeScope = undefined;
    this.tokensDropped = false;
    noteNeedsLogin(this.options.serverUrl, false);
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    const scope = unionScopes(
      url.searchParams.get('scope') ?? undefined,
      this.stored()?.stepUpScope,
      this.challengeScope,
    );
    if (!this.options.authorizer) {
      if (this.challengeScope && !this.tokensDropped) {
        const record = this.stored();
        if (record) await writeLogin(this.options.folder, { ...record, stepUpScope: scope });
        throw this.needsLogin('scope', scope);
      }
      throw this.needsLogin(this.tokensDropped ? 'expired' : 'login');
    }
    if (++this.authorizations > MAX_AUTHORIZATIONS) {
      throw new LoginError(
        `the server still refuses after ${MAX_AUTHORIZATIONS} authorizations${scope ? ` (it asks for scope "${scope}")` : ''}; it does not accept what its authorization server grants`,
      );
    }
    if (scope) url.searchParams.set('scope', scope);
    this.code = await this.options.authorizer.authorize(url, this.sentState ?? '');
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new LoginError('no authorization is in progress');
    return this.verifier;
  }

  /** RFC 8414 §3.3: the metadata must name the issuer it was looked up for, or it is someone else's. */
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    const issuer = state.authorizationServerMetadata?.issuer;
    if (issuer && !sameIssuer(issuer, state.authorizationServerUrl)) {
      throw new LoginError(
        `the authorization server metadata found for ${state.authorizationServerUrl} names another issuer (${issuer}); refusing it (issuer mismatch)`,
      );
    }
    this.discovered = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    if (this.login) return this.discovered;
    const record = this.stored();
    // Without tokens only an authorization helps: say so before any request is made.
    if (!record?.tokens || this.tokensDropped)
      throw this.needsLogin(this.tokensDropped ? 'expired' : 'login');
    return this.discovered ?? record.discovery;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier') {
      this.verifier = undefined;
      return;
    }
    const all = scope === 'all';
    if (all || scope === 'client') {
      this.registered = undefined;
      this.storedClientDropped = true;
    }
    if (all || scope === 'tokens') {
      this.received = undefined;
      this.tokensDropped = !this.login;
    }
    if (all || scope === 'discovery') this.discovered = undefined;
    if (this.login) return;
    // A session forgets what the authorization server no longer accepts.
    if (all) {
      removeLogin(this.options.folder, this.options.serverUrl);
      return;
    }
    const record = this.stored();
    if (!record) return;
    const next: LoginRecord = { ...record };
    if (scope === 'tokens') delete next.tokens;
    if (scope === 'client') delete next.client;
    if (scope === 'discovery') delete next.discovery;
    await writeLogin(this.options.folder, next);
  }
}
