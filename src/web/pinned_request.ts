import type { LookupAddress } from 'node:dns';
import type { Readable } from 'node:stream';
import { decodedBody, flatHeaders } from '../util/http_content.js';
import { describeBytes, WebError } from './web_error.js';

/** How long and how much one request may take. */
export interface RequestLimits {
  connectTimeoutMs: number;
  /** Shared by every hop of a fetch: the caller's deadline. */
  signal: AbortSignal;
  maxBytes: number;
}

export interface RawResponse {
  url: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` that answers every name with the one address the policy checked, so the socket
 * connects exactly there: a second DNS answer (rebinding) has no say.
 */
function pinnedLookup(address: string, family: 4 | 6) {
  return (_host: string, options: { all?: boolean } | LookupCallback, callback?: LookupCallback) => {
    const done = (typeof options === 'function' ? options : callback) as LookupCallback;
    const all = typeof options === 'object' && options.all;
    if (all) done(null, [{ address, family }]);
    else done(null, address, family);
  };
}

/** Reads a body up to `maxBytes` (after decompression, so a small zip bomb stops too). */
export async function readCapped(
  body: Readable,
  encoding: string | undefined,
  maxBytes: number,
  url: string,
) {
  const chunks: Buffer[] = [];
  let size = 0;
  const stream = decodedBody(body, encoding);
  try {
    for await (const chunk of stream) {
      size += (chunk as Buffer).length;
      if (size > maxBytes)
        throw new WebError(
          `${url}: the response is larger than ${describeBytes(maxBytes)} (settings web.maxBytes); stopped reading`,
          'too_large',
        );
      chunks.push(chunk as Buffer);
    }
  } finally {
    body.destroy();
    stream.destroy();
  }
  return Buffer.concat(chunks);
}

function networkError(error: unknown, url: URL, limits: RequestLimits, totalMs: number): WebError {
  if (error instanceof WebError) return error;
  if (limits.signal.aborted) {
    const reason = limits.signal.reason;
    if (reason instanceof WebError) return reason;
    if ((reason as Error)?.name === 'TimeoutError')
      return new WebError(
        `${url.href}: no complete answer within ${totalMs / 1000} s (settings web.timeouts.total)`,
        'timeout',
      );
    return new WebError(`${url.href}: the fetch was interrupted`, 'timeout');
  }
  const code = (error as { code?: string }).code ?? '';
  if (code === 'UND_ERR_CONNECT_TIMEOUT')
    return new WebError(
      `${url.host}: could not connect within ${limits.connectTimeoutMs / 1000} s (settings web.timeouts.connect)`,
      'timeout',
    );
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const detail = code || cause?.code || (error as Error).message || String(error);
  return new WebError(`${url.host}: the request failed (${detail})`, 'network');
}

/**
 * One HTTP request, connected to `address` whatever DNS says now, never following a redirect
 * (the caller checks each hop). Undici is loaded on the first fetch, off the start-up path.
 */
export async function pinnedRequest(
  url: URL,
  pin: { address: string; family: 4 | 6 },
  headers: Record<string, string>,
  limits: RequestLimits & { totalTimeoutMs: number },
): Promise<RawResponse> {
  const { Agent, request } = await import('undici');
  const dispatcher = new Agent({
    connect: { lookup: pinnedLookup(pin.address, pin.family), timeout: limits.connectTimeoutMs },
    // The caller's deadline bounds the whole fetch; these only stop undici's own 300 s defaults.
    headersTimeout: limits.totalTimeoutMs,
    bodyTimeout: limits.totalTimeoutMs,
  });
  // Credentials in the URL (`user@host`) are never sent.
  const target = new URL(url.href);
  target.username = '';
  target.password = '';
  try {
    const response = await request(target, {
      method: 'GET',
      headers,
      dispatcher,
      signal: limits.signal,
    });
    const flat = flatHeaders(response.headers);
    const body = await readCapped(response.body, flat['content-encoding'], limits.maxBytes, url.href);
    return { url: url.href, status: response.statusCode, headers: flat, body };
  } catch (error) {
    throw networkError(error, url, limits, limits.totalTimeoutMs);
  } finally {
    dispatcher.destroy().catch(() => {});
  }
}
