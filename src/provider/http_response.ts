import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { decodedBody, flatHeaders } from '../util/http_content.js';
import { PlainHeaders } from './plain_headers.js';

/** Statuses whose response has no body at all (the Fetch standard's null body statuses). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

interface ResponseParts {
  status: number;
  statusText: string;
  headers: PlainHeaders;
  body: ReadableStream<Uint8Array> | null;
  url: string;
  redirected: boolean;
}

/**
 * A Fetch API Response read from Node's HTTP client: what model providers read of one (status,
 * headers, the body as a web stream or whole as text, JSON or bytes), without the global
 * Response, which would load undici. The body is decompressed as fetch does.
 */
export class NodeResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: PlainHeaders;
  readonly body: ReadableStream<Uint8Array> | null;
  readonly url: string;
  readonly redirected: boolean;
  readonly type = 'basic';
  private used = false;

  constructor(parts: ResponseParts) {
    this.status = parts.status;
    this.statusText = parts.statusText;
    this.headers = parts.headers;
    this.body = parts.body;
    this.url = parts.url;
    this.redirected = parts.redirected;
  }

  /** The response to a request: `head` (a HEAD request) has no body, like a null body status. */
  static fromMessage(
    message: IncomingMessage,
    url: string,
    redirected: boolean,
    head: boolean,
  ): NodeResponse {
    const headers = flatHeaders(message.headers);
    const status = message.statusCode ?? 0;
    const empty = head || NULL_BODY_STATUSES.has(status);
    if (empty) message.resume();
    const body = empty
      ? null
      : (Readable.toWeb(decodedBody(message, headers['content-encoding'])) as ReadableStream<Uint8Array>);
    return new NodeResponse({
      status,
      statusText: message.statusMessage ?? '',
      headers: new PlainHeaders(headers),
      body,
      url,
      redirected,
    });
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  get bodyUsed(): boolean {
    return this.used;
  }

  /** The same response with another body (a stream that watches the original, say). */
  withBody(body: ReadableStream<Uint8Array>): NodeResponse {
    return new NodeResponse({ ...this, body });
  }

  async bytes(): Promise<Uint8Array> {
    if (this.used) throw new TypeError('Body is unusable: Body has already been read');
    this.used = true;
    if (!this.body) return new Uint8Array(0);
    const chunks: Uint8Array[] = [];
    const reader = this.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
    return Buffer.concat(chunks);
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.bytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.bytes());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
}
