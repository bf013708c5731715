import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LoginError } from './errors.js';

const CALLBACK_PATH = '/callback';

/**
 * The authorization code a redirect carries, once its `state` is the one lathe sent: any other
 * redirect (an old tab, a forged link) is refused, and so is the server's refusal.
 */
export function codeFromRedirect(params: URLSearchParams, sentState: string): string {
  const error = params.get('error');
  if (error) {
    const description = params.get('error_description');
    throw new LoginError(
      `the authorization server refused the login: ${error}${description ? ` (${description})` : ''}`,
    );
  }
  if (params.get('state') !== sentState)
    throw new LoginError(
      'the redirect carried another state than the one lathe sent: it does not answer this login (refused)',
    );
  const code = params.get('code');
  if (!code) throw new LoginError('the redirect carried no authorization code');
  return code;
}

/** What a pasted line holds: the redirect's whole address, or just its query. */
export function pastedRedirect(line: string): URLSearchParams | undefined {
  const text = line.trim();
  if (!text) return undefined;
  try {
    return new URL(text).searchParams;
  } catch {
    const query = new URLSearchParams(text.replace(/^[^?]*\?/, ''));
    return query.has('code') || query.has('error') ? query : undefined;
  }
}

const page = (title: string, text: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:sans-serif"><h1>${title}</h1><p>${text}</p></body>`;

/** A listener on 127.0.0.1 for the browser's redirect back to lathe, the end of a login. */
export class LoopbackRedirect {
  private settle?: { resolve(code: string): void; reject(error: Error): void };
  private sentState = '';

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  /** Listens on `port` (0: any free port); rejects with EADDRINUSE when a given port is taken. */
  static async listen(port: number): Promise<LoopbackRedirect> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    const { port: bound } = server.address() as AddressInfo;
    const redirect = new LoopbackRedirect(server, `http://127.0.0.1:${bound}${CALLBACK_PATH}`);
    server.on('request', (req, res) => {
      const url = new URL(req.url ?? '/', redirect.url);
      if (req.method !== 'GET' || url.pathname !== CALLBACK_PATH) {
        res.writeHead(404).end();
        return;
      }
      const outcome = redirect.receive(url.searchParams);
      res.writeHead(outcome.ok ? 200 : 400, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        outcome.ok
          ? page('Logged in', 'lathe has the authorization; you can close this tab.')
          : page('Not logged in', outcome.reason),
      );
    });
    return redirect;
  }

  /** The code of the next redirect (or pasted address) for an authorization sent with `state`. */
  wait(state: string): Promise<string> {
    this.sentState = state;
    return new Promise((resolve, reject) => {
      this.settle = { resolve, reject };
    });
  }

  /** A redirect arrived (in the browser, or pasted): settles the wait with its code or its problem. */
  receive(params: URLSearchParams): { ok: true } | { ok: false; reason: string } {
    const settle = this.settle;
    if (!settle) return { ok: false, reason: 'lathe is not waiting for a login.' };
    this.settle = undefined;
    try {
      settle.resolve(codeFromRedirect(params, this.sentState));
      return { ok: true };
    } catch (error) {
      settle.reject(error as Error);
      return { ok: false, reason: `${(error as Error).message}.` };
    }
  }

  close(): Promise<void> {
    this.settle?.reject(new LoginError('the login was stopped'));
    this.settle = undefined;
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}
