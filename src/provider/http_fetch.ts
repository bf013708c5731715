import type { IncomingMessage } from 'node:http';
import { lazyBuiltin } from '../util/lazy_builtin.js';
import { NodeResponse } from './http_response.js';
import { PlainHeaders } from './plain_headers.js';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Fetch's own limit on redirects followed for one request. */
const MAX_REDIRECTS = 20;
/** Headers about a body, dropped when a redirect turns the request into a GET. */
const BODY_HEADERS = [
  'content-type',
  'content-length',
  'content-encoding',
  'content-language',
  'content-location',
];
/** Credentials never carried to another origin by a redirect: fetch's own, and the providers' key headers. */
const CREDENTIAL_HEADERS = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'x-api-key',
  'x-goog-api-key',
  'api-key',
];

interface PlainRequest {
  url: URL;
  method: string;
  headers: PlainHeaders;
  body?: Uint8Array;
  signal?: AbortSignal;
  redirect: NonNullable<RequestInit['redirect']>;
}

/**
 * `fetch` for model requests on Node's own HTTP client. Node's global fetch loads undici, its
 * JavaScript and its WebAssembly parser, about 50 ms of CPU before the first request; a model
 * request needs none of it. Follows redirects, decompresses, aborts and fails as fetch does
 * (a network error is a TypeError "fetch failed" with the cause, which the AI SDK retries).
 * Anything it does not take (a Request object, a streamed or form body, another protocol) goes
 * to the global fetch.
 */
export async function httpFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const request = plainRequest(input, init);
  if (!request) return globalThis.fetch(input, init);
  for (let redirects = 0; ; redirects++) {
    const message = await send(request);
    const status = message.statusCode ?? 0;
    const location = message.headers.location;
    if (!REDIRECT_STATUSES.has(status) || location === undefined || request.redirect === 'manual')
      return NodeResponse.fromMessage(
        message,
        request.url.href,
        redirects > 0,
        request.method === 'HEAD',
      ) as unknown as Response;
    message.resume();
    if (request.redirect === 'error') throw fetchFailed(new Error(`redirected to ${location}`));
    if (redirects === MAX_REDIRECTS) throw fetchFailed(new Error(`more than ${MAX_REDIRECTS} redirects`));
    const next = new URL(location, request.url);
    if (next.protocol !== 'http:' && next.protocol !== 'https:')
      throw fetchFailed(new Error(`redirected to ${next.protocol} ${next.href}`));
    follow(request, status, next);
  }
}

/** The request when fetch's arguments are ones this client takes; undefined otherwise. */
function plainRequest(input: string | URL | Request, init: RequestInit): PlainRequest | undefined {
  if (typeof input !== 'string' && !(input instanceof URL)) return undefined;
  const body = bodyBytes(init.body);
  if (body === false) return undefined;
  const url = new URL(input);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const headers = new PlainHeaders(init.headers as ConstructorParameters<typeof PlainHeaders>[0]);
  if (!headers.has('accept')) headers.set('accept', '*/*');
  if (!headers.has('accept-encoding')) headers.set('accept-encoding', 'gzip, deflate, br');
  return {
    url,
    method: (init.method ?? 'GET').toUpperCase(),
    headers,
    body,
    signal: init.signal ?? undefined,
    redirect: init.redirect ?? 'follow',
  };
}

/** A body as bytes; undefined for none; false for a kind only fetch itself sends (streams, forms, blobs). */
function bodyBytes(body: RequestInit['body']): Uint8Array | undefined | false {
  if (body == null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  return false;
}

/** Turns the request into the one a redirect asks for, as fetch does. */
function follow(request: PlainRequest, status: number, next: URL): void {
  const toGet =
    status === 303
      ? request.method !== 'HEAD'
      : (status === 301 || status === 302) && request.method === 'POST';
  if (toGet) {
    request.method = 'GET';
    request.body = undefined;
    for (const name of BODY_HEADERS) request.headers.delete(name);
  }
  if (next.origin !== request.url.origin) for (const name of CREDENTIAL_HEADERS) request.headers.delete(name);
  request.url = next;
}

/** One request and its response's head; the signal aborts it, body included. */
function send(request: PlainRequest): Promise<IncomingMessage> {
  const { url, method, body, signal } = request;
  const client = url.protocol === 'https:' ? lazyBuiltin('node:https') : lazyBuiltin('node:http');
  const headers = Object.fromEntries(request.headers);
  if (body) headers['content-length'] = String(body.byteLength);
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    let received: IncomingMessage | undefined;
    const sent = client.request(url, { method, headers }, (message) => {
      received = message;
      message.once('close', stopWatching);
      resolve(message);
    });
    // Once the answer has begun, its body ends with the abort's reason (a stream reader sees it).
    const abort = () => (received ?? sent).destroy(signal?.reason);
    function stopWatching() {
      signal?.removeEventListener('abort', abort);
    }
    signal?.addEventListener('abort', abort, { once: true });
    sent.on('error', (error) => {
      stopWatching();
      reject(signal?.aborted ? signal.reason : fetchFailed(error));
    });
    sent.end(body);
  });
}

/** The error fetch gives for a request that never got an answer. */
function fetchFailed(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}
