import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { PlannedReply, Protocol, RequestSummary, ScriptedError, WireJson } from './types.js';

/**
 * Writes one HTTP reply: either a JSON body or a stream of server-sent events.
 * Once the client has gone away every write becomes a no-op, so writers can run to the end
 * without checking; `gone` lets them stop early.
 */
export class ReplyWriter {
  private lineEnd = '\n';

  /** Fires when the connection closes, so a pause between events ends with it. */
  private readonly closed = new AbortController();
  private writes = 0;

  constructor(
    private readonly res: ServerResponse,
    private readonly delayMs = 0,
    /** After this many writes on the stream, send nothing more (a stalled stream). */
    private readonly stallAfter = Number.POSITIVE_INFINITY,
  ) {
    res.once('close', () => this.closed.abort());
  }

  /** Sends nothing more and holds the connection until the client goes away or the server closes. */
  async stall(): Promise<void> {
    if (this.gone || this.closed.signal.aborted) return;
    await new Promise((resolve) => this.closed.signal.addEventListener('abort', resolve, { once: true }));
  }

  get gone(): boolean {
    return this.res.destroyed || this.res.writableEnded;
  }

  json(status: number, body: unknown, headers: Record<string, string> = {}): void {
    if (this.gone) return;
    this.res.writeHead(status, { 'content-type': 'application/json', ...headers });
    this.res.end(JSON.stringify(body));
  }

  /** `lineEnd`: Gemini ends its SSE lines with CRLF; the others use LF. */
  startStream(contentType = 'text/event-stream', lineEnd = '\n'): void {
    this.lineEnd = lineEnd;
    if (this.gone) return;
    this.res.writeHead(200, {
      'content-type': contentType,
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    // Send the headers now: clients resolve `fetch` on them, before any event arrives.
    this.res.flushHeaders();
  }

  /** One SSE event; `event` is the optional `event:` line (Anthropic and Responses name their events). */
  async event(event: string | undefined, data: unknown): Promise<void> {
    const payload = typeof data === 'string' ? data : JSON.stringify(data);
    const nl = this.lineEnd;
    await this.raw(`${event ? `event: ${event}${nl}` : ''}data: ${payload}${nl}${nl}`);
  }

  /** Raw bytes on the open stream, then the scripted pause. */
  async raw(text: string): Promise<void> {
    if (this.gone) return;
    if (this.writes >= this.stallAfter) return this.stall();
    this.writes++;
    this.res.write(text);
    if (this.delayMs > 0)
      await sleep(this.delayMs, undefined, { signal: this.closed.signal }).catch(() => {});
  }

  end(): void {
    if (!this.gone && this.writes < this.stallAfter) this.res.end();
  }
}

/** Split text into about `pieces` chunks, as the real APIs stream it; '' gives no chunks. */
export function splitInPieces(text: string, pieces = 3): string[] {
  if (!text) return [];
  const size = Math.max(1, Math.ceil(text.length / pieces));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** The plain text of a message content: a string, or the text of its text-like parts. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (part && typeof part === 'object' && typeof part.text === 'string' ? part.text : ''))
    .filter((t) => t.length > 0)
    .join('\n');
}

/** Text content as a tool result string: strings stay, anything else becomes its text parts or JSON. */
export function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  const text = textOf(content);
  if (text || Array.isArray(content)) return text;
  return content === undefined ? '' : JSON.stringify(content);
}

/** Parse a tool call's arguments when they are valid JSON, for wire shapes that carry objects. */
export function parsedOrRaw(args: string): unknown {
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** What a protocol writer gets for one model request. */
export interface WriteContext {
  reply: PlannedReply;
  model?: string;
  stream: boolean;
  body: WireJson;
  query: URLSearchParams;
  /** Server-wide ids: `nextId('msg_')` gives msg_1, msg_2, ... */
  nextId: (prefix: string) => string;
}

/** One wire format: how to read its requests and write its replies and errors. */
export interface ProtocolHandler {
  readonly protocol: Protocol;
  /** The prefix of default tool call ids in this provider's style. */
  readonly toolCallIdPrefix: string;
  /** The name (or type) of the provider's own search tool in a request's tools; none when it has none. */
  readonly searchToolName?: string;
  read(body: WireJson): RequestSummary;
  write(out: ReplyWriter, ctx: WriteContext): Promise<void>;
  errorBody(error: ScriptedError): unknown;
}
