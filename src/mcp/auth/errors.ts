/**
 * The server needs the user to log in (first time, again, or with more scopes). A session never
 * opens a browser by itself: its message says which command does.
 */
export class NeedsLoginError extends Error {
  override name = 'NeedsLoginError';
}

/** A step of the login went wrong in a way the message explains in one line; nothing was stored. */
export class LoginError extends Error {
  override name = 'LoginError';
}

export type LoginNeed = 'login' | 'expired' | 'scope';

export function needsLoginMessage(server: string, need: LoginNeed, scope?: string): string {
  const command = `lathe mcp login ${server}`;
  switch (need) {
    case 'login':
      return `needs a login: run \`${command}\``;
    case 'expired':
      return `its login has expired or was revoked: run \`${command}\` to log in again`;
    case 'scope':
      return `asks for more access${scope ? ` (scope "${scope}")` : ''}: run \`${command}\` to grant it`;
  }
}

/** Whether an error (from any SDK layer that passes it through) is a NeedsLoginError. */
export function isNeedsLogin(error: unknown): boolean {
  return (error as { name?: string } | undefined)?.name === 'NeedsLoginError';
}

/**
 * Two authorization-server identifiers are the same when they parse to the same URL, one
 * trailing `/` aside (metadata often omits the slash that URL parsing adds).
 */
export function sameIssuer(a: string, b: string): boolean {
  const norm = (value: string) => {
    try {
      return new URL(value).href.replace(/\/$/, '');
    } catch {
      return value.replace(/\/$/, '');
    }
  };
  return norm(a) === norm(b);
}
