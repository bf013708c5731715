import { extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import { LoginError } from './errors.js';

/** The last answer seen, to say what a server sent when it was not what OAuth expects. */
export interface Exchange {
  url: string;
  status: number;
  contentType: string;
}

type FetchInput = string | URL | Request;

/** A URL as shown in messages: no query, no fragment, no credentials. */
export function shownUrl(input: FetchInput): string {
  try {
    const url = new URL(input instanceof Request ? input.url : String(input));
    url.search = url.hash = url.username = url.password = '';
    return url.href;
  } catch {
    return String(input);
  }
}

/**
 * The fetch an authorized transport uses: notes a 403 `insufficient_scope` challenge (the
 * scopes a step-up must ask for) and the last answer; with `requestTimeoutMs`, each request
 * waits that long at most for its answer to begin (the body, an event stream, is not cut).
 */
export class AuthFetch {
  /** The last answer. */
  last?: Exchange;
  /** The last request sent (answered or not): what a failure to connect names. */
  lastRequest?: string;
  /** A request that has not been answered yet. */
  waitingFor?: string;

  constructor(
    private readonly options: {
      requestTimeoutMs?: number;
      onScopeChallenge?: (scope: string | undefined) => void;
    } = {},
  ) {}

  readonly fetch = async (input: FetchInput, init?: RequestInit): Promise<Response> => {
    this.lastRequest = this.waitingFor = shownUrl(input);
    const response = await this.bounded(input, init).finally(() => {
      this.waitingFor = undefined;
    });
    this.last = {
      url: shownUrl(input),
      status: response.status,
      contentType: response.headers.get('content-type') ?? 'no content type',
    };
    if (response.status === 403) {
      const { error, scope } = extractWWWAuthenticateParams(response);
      if (error === 'insufficient_scope') this.options.onScopeChallenge?.(scope);
    }
    return response;
  };

  private async bounded(input: FetchInput, init?: RequestInit): Promise<Response> {
    const ms = this.options.requestTimeoutMs;
    if (ms === undefined) return fetch(input, init);
    const own = new AbortController();
    const timer = setTimeout(
      () => own.abort(new LoginError(`${shownUrl(input)} did not answer within ${ms / 1000} s`)),
      ms,
    );
    const signal = init?.signal ? AbortSignal.any([init.signal, own.signal]) : own.signal;
    try {
      return await fetch(input, { ...init, signal });
    } finally {
      clearTimeout(timer);
    }
  }
}
