import type { AuthFetch } from './fetch.js';

interface ErrorLike {
  name?: string;
  message?: string;
  errorCode?: string;
  cause?: { code?: string; message?: string };
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 400);

/** An answer the SDK could not read as OAuth's JSON: a parse error, a schema error, or a non-OAuth error body. */
function unreadable(e: ErrorLike): boolean {
  if (e.name === 'SyntaxError' || e.name === 'ZodError') return true;
  return e.name === 'ServerError' && /Invalid OAuth error response|Raw body/.test(e.message ?? '');
}

/**
 * A failed login step in one line the user can act on: what answered what, never a stack or a
 * raw HTML page.
 */
export function describeLoginFailure(error: unknown, seen: Pick<AuthFetch, 'last' | 'lastRequest'>): string {
  const e = (error ?? {}) as ErrorLike;
  if (e.name === 'LoginError' || e.name === 'NeedsLoginError') return e.message ?? 'the login failed';
  const last = seen.last;
  if (unreadable(e) && last) {
    return /json/i.test(last.contentType)
      ? `${last.url} answered HTTP ${last.status} with JSON that is not what OAuth expects`
      : `${last.url} answered HTTP ${last.status} with ${last.contentType.split(';')[0]}, not the JSON OAuth expects`;
  }
  if (/does not support dynamic client registration/.test(e.message ?? '')) {
    return `${oneLine(e.message ?? '')}; give the client registered for lathe in the server's entry ("oauth": {"clientId": …})`;
  }
  if (e.errorCode) {
    return `the authorization server refused: ${e.errorCode}${e.message ? ` (${oneLine(e.message)})` : ''}`;
  }
  if (e.name === 'TypeError' && e.cause) {
    return `could not reach ${seen.lastRequest ?? 'the server'}: ${e.cause.code ?? e.cause.message}`;
  }
  return oneLine(e.message ?? String(error));
}
