import type { IncomingMessage } from 'node:http';

/**
 * Who may call `lathe mcp serve --http`, judged before the token and before any session: a
 * DNS-rebinding page reaches 127.0.0.1 under its own host name, so a `Host` other than the
 * listening address is refused, and so is a browser page (`Origin`) from elsewhere than the
 * listening address and not named in settings. The listening address's own origin cannot be a
 * rebinding page (its `Host` is checked), and the bearer token still gates it.
 *
 * The MCP SDK's own checks do not fit here: the transport's `allowedHosts` / `allowedOrigins`
 * run inside a session's transport (after the token, after a session is made for an
 * initialize), and its `hostHeaderValidation` is Express middleware that ignores the port.
 */
export interface CallerPolicy {
  /** The port the server listens on, on 127.0.0.1. */
  port: number;
  /** Settings `mcp.allowedOrigins`, as origins (`https://app.example`). */
  allowedOrigins: readonly string[];
}

/** The `Host` values that name the listening address: 127.0.0.1 and localhost, with its port. */
function listeningHosts(port: number): string[] {
  const names = ['127.0.0.1', 'localhost'];
  const hosts = names.map((name) => `${name}:${port}`);
  // Port 80 is the default: clients may leave it out.
  return port === 80 ? [...hosts, ...names] : hosts;
}

function originOf(value: string): string {
  try {
    return new URL(value).origin;
  } catch {
    return value;
  }
}

const quoted = (value: string) => JSON.stringify(value.length > 100 ? `${value.slice(0, 99)}…` : value);

/** Why a request may not be served (one line for the log and the 403), or undefined. */
export function callerRefusal(req: IncomingMessage, policy: CallerPolicy): string | undefined {
  const allowed = listeningHosts(policy.port);
  const host = req.headers.host;
  if (host === undefined) return `refused a request without a Host header (send Host: ${allowed[0]})`;
  if (!allowed.includes(host.toLowerCase()))
    return `refused a request for Host ${quoted(host)}: lathe listens at ${allowed.join(' and ')}`;
  const origin = req.headers.origin;
  const ownOrigins = listeningHosts(policy.port).map((name) => `http://${name}`);
  const allowedOrigins = [...ownOrigins, ...policy.allowedOrigins];
  if (origin !== undefined && !allowedOrigins.includes(originOf(origin)))
    return `refused a request from Origin ${quoted(origin)}: not in settings mcp.allowedOrigins`;
  return undefined;
}
