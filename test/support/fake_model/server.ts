import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropic, anthropicCountTokens } from './anthropic.js';
import { gemini, geminiCountTokens } from './gemini.js';
import { openaiChat } from './openai_chat.js';
import { openaiResponses } from './openai_responses.js';
import { AnthropicPromptCache, estimateTokens } from './prompt_cache.js';
import { requestTokens } from './request_tokens.js';
import type {
  PlannedReply,
  Protocol,
  RecordedRequest,
  ScriptedReply,
  ScriptedTurn,
  WireJson,
} from './types.js';
import { type ProtocolHandler, ReplyWriter } from './wire.js';

const DEFAULT_USAGE = { inputTokens: 100, outputTokens: 20 };
const NO_TURN_LEFT: ScriptedTurn = { error: { status: 500, message: 'no scripted turn left' } };
const LISTED_MODELS = ['fake-model', 'claude-sonnet-4-5', 'gpt-5', 'gemini-2.5-flash'];
/** `respond` turns may return further `respond` turns; this bounds a script that loops. */
const MAX_RESPOND_DEPTH = 10;

type Route =
  | { kind: 'model'; handler: ProtocolHandler; model?: string; stream?: boolean }
  | { kind: 'count_tokens'; protocol: Protocol; model?: string }
  | { kind: 'models'; id?: string }
  | { kind: 'unknown' };

/** Routes match on the path's ending, so any prefix (`/v1`, `/proxy/v1beta`, ...) works. */
function route(method: string, path: string): Route {
  const geminiCall = /\/models\/([^/:]+):(streamGenerateContent|generateContent|countTokens)$/.exec(path);
  if (method === 'POST') {
    if (path.endsWith('/messages/count_tokens')) return { kind: 'count_tokens', protocol: 'anthropic' };
    if (path.endsWith('/messages')) return { kind: 'model', handler: anthropic };
    if (path.endsWith('/chat/completions')) return { kind: 'model', handler: openaiChat };
    if (path.endsWith('/responses')) return { kind: 'model', handler: openaiResponses };
    if (geminiCall?.[2] === 'countTokens')
      return { kind: 'count_tokens', protocol: 'gemini', model: decodeURIComponent(geminiCall[1]) };
    if (geminiCall) {
      const stream = geminiCall[2] === 'streamGenerateContent';
      return { kind: 'model', handler: gemini, model: decodeURIComponent(geminiCall[1]), stream };
    }
  }
  if (method === 'GET' && /\/models\/?$/.test(path)) return { kind: 'models' };
  const oneModel = /\/models\/([^/:]+)$/.exec(path);
  if (method === 'GET' && oneModel) return { kind: 'models', id: decodeURIComponent(oneModel[1]) };
  return { kind: 'unknown' };
}

function protocolOf(r: Route, path: string, headers: Record<string, string>): Protocol | 'unknown' {
  if (r.kind === 'model') return r.handler.protocol;
  if (r.kind === 'count_tokens') return r.protocol;
  if (r.kind === 'unknown') return 'unknown';
  // A model listing can come from any client; guess whose from its path and headers.
  if (path.includes('/v1beta') || headers['x-goog-api-key']) return 'gemini';
  if (headers['anthropic-version']) return 'anthropic';
  return 'unknown';
}

function modelsBody(id: string | undefined): unknown {
  const entry = (m: string) => ({
    id: m,
    object: 'model',
    type: 'model',
    display_name: m,
    created: 1_700_000_000,
    created_at: '2024-01-01T00:00:00Z',
    owned_by: 'fake',
    name: `models/${m}`,
    displayName: m,
    supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
  });
  if (id) return entry(id);
  // One body for every client: OpenAI and Anthropic read `data`, Gemini reads `models`.
  const data = LISTED_MODELS.map(entry);
  return {
    object: 'list',
    data,
    has_more: false,
    first_id: LISTED_MODELS[0],
    last_id: LISTED_MODELS.at(-1),
    models: data,
  };
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers))
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

async function readBody(req: IncomingMessage): Promise<{ raw: string; body: WireJson }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  try {
    return { raw, body: raw ? JSON.parse(raw) : undefined };
  } catch {
    return { raw, body: raw };
  }
}

export interface FakeModelServerOptions {
  turns?: ScriptedTurn[];
  /** Used when the queue is empty; by default a 500 error turn, 'no scripted turn left'. */
  fallback?: ScriptedTurn;
  /**
   * Emulate Anthropic's prompt cache: Anthropic replies report input, cache-read and cache-write
   * tokens from the request (a token per 4 characters) and the breakpoints seen so far.
   * `minTokens` is the shortest prefix cached (Anthropic: 1024 for Sonnet and Opus).
   */
  promptCache?: { minTokens?: number };
  /**
   * Told as each request arrives and as its reply's last byte is handed to the socket, with the
   * request's path: benchmarks time a client from outside by these.
   */
  onTraffic?: (event: { phase: 'request' | 'reply_end'; path: string }) => void;
  /**
   * Count each model request's tokens (o200k, from the wire body: `RecordedRequest.tokens`), and
   * report that count as the input tokens of replies whose turn scripts no usage, as a provider does.
   */
  countTokens?: boolean;
}

/**
 * A scripted stand-in for the model APIs, speaking their real wire formats on 127.0.0.1.
 * Each model request, whatever its protocol, takes the next turn of the script.
 */
export class FakeModelServer {
  readonly url: string;
  readonly requests: RecordedRequest[] = [];
  private readonly queue: ScriptedTurn[];
  private readonly fallback: ScriptedTurn;
  private readonly onTraffic: FakeModelServerOptions['onTraffic'];
  private readonly countTokens: boolean;
  private readonly openResponses = new Set<ServerResponse>();
  private readonly idCounters = new Map<string, number>();
  private readonly promptCache?: AnthropicPromptCache;
  /** Waiters for a number of model requests (`untilModelRequests`). */
  private readonly requestWaiters = new Set<() => void>();

  private constructor(
    private readonly server: Server,
    options: FakeModelServerOptions,
  ) {
    const { port } = server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${port}`;
    this.queue = [...(options.turns ?? [])];
    this.fallback = options.fallback ?? NO_TURN_LEFT;
    if (options.promptCache) this.promptCache = new AnthropicPromptCache(options.promptCache.minTokens);
    this.onTraffic = options.onTraffic;
    this.countTokens = options.countTokens ?? false;
  }

  static async start(options: FakeModelServerOptions = {}): Promise<FakeModelServer> {
    let instance: FakeModelServer | undefined;
    const server = createServer((req, res) => {
      instance?.handle(req, res).catch((error) => {
        // A bug here must reach the test as a visible failure, not as a silent hang.
        if (res.headersSent) res.destroy();
        else new ReplyWriter(res).json(500, { error: { message: `fake model server: ${String(error)}` } });
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    instance = new FakeModelServer(server, options);
    return instance;
  }

  /** Resolves once `count` model requests have arrived: tests wait on this, not on time. */
  untilModelRequests(count: number): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (this.requests.filter((r) => r.kind === 'model').length < count) return;
        this.requestWaiters.delete(check);
        resolve();
      };
      this.requestWaiters.add(check);
      check();
    });
  }

  enqueue(...turns: ScriptedTurn[]): void {
    this.queue.push(...turns);
  }

  /** Base URLs as each SDK (and its env var) expects them. */
  baseUrl(protocol: Protocol): string {
    return protocol === 'gemini' ? `${this.url}/v1beta` : `${this.url}/v1`;
  }

  /** Stops listening and cuts every open response, hanging ones included. */
  async close(): Promise<void> {
    for (const res of this.openResponses) res.destroy();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  private nextId = (prefix: string): string => {
    const n = (this.idCounters.get(prefix) ?? 0) + 1;
    this.idCounters.set(prefix, n);
    return `${prefix}${n}`;
  };

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.openResponses.add(res);
    res.once('close', () => this.openResponses.delete(res));
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', this.url);
    if (this.onTraffic) {
      const notify = this.onTraffic;
      notify({ phase: 'request', path: url.pathname });
      res.once('finish', () => notify({ phase: 'reply_end', path: url.pathname }));
    }
    const headers = flatHeaders(req);
    const { raw, body } = await readBody(req);
    const r = route(method, url.pathname);
    const summary = r.kind === 'model' ? r.handler.read(body) : undefined;
    // Gemini names the model and the streaming choice in the path; the others in the body.
    const pathModel = r.kind === 'model' || r.kind === 'count_tokens' ? r.model : undefined;
    const recorded: RecordedRequest = {
      protocol: protocolOf(r, url.pathname, headers),
      kind: r.kind,
      method,
      path: url.pathname,
      headers,
      body,
      stream: (r.kind === 'model' ? (r.stream ?? summary?.stream) : false) ?? false,
      model: pathModel ?? summary?.model ?? body?.model,
      toolNames: summary?.toolNames ?? [],
      toolResults: summary?.toolResults ?? [],
      lastUserText: summary?.lastUserText,
      systemText: summary?.systemText,
      ...(this.countTokens && r.kind === 'model' ? { tokens: requestTokens(r.handler.protocol, body) } : {}),
    };
    this.requests.push(recorded);
    for (const check of [...this.requestWaiters]) check();
    const out = new ReplyWriter(res);
    if (r.kind === 'count_tokens') {
      out.json(200, r.protocol === 'gemini' ? geminiCountTokens(raw) : anthropicCountTokens(raw));
    } else if (r.kind === 'models') {
      out.json(200, modelsBody(r.id));
    } else if (r.kind === 'unknown') {
      const message = `fake model server: no route for ${method} ${url.pathname}`;
      out.json(404, { error: { message, type: 'not_found_error', code: 404 } });
    } else {
      await this.answer(r.handler, recorded, res, url);
    }
  }

  /** Answer a model request with the next turn of the script. */
  private async answer(handler: ProtocolHandler, req: RecordedRequest, res: ServerResponse, url: URL) {
    let turn = this.queue.shift() ?? this.fallback;
    try {
      for (let depth = 0; 'respond' in turn; depth++) {
        if (depth >= MAX_RESPOND_DEPTH) throw new Error('respond turns nested too deep');
        turn = turn.respond(req);
      }
    } catch (error) {
      turn = { error: { status: 500, message: `fake model server: respond failed: ${String(error)}` } };
    }
    if ('error' in turn) {
      const { retryAfterSeconds } = turn.error;
      const retryAfter: Record<string, string> =
        retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) };
      new ReplyWriter(res).json(turn.error.status, handler.errorBody(turn.error), retryAfter);
      return;
    }
    if ('hang' in turn) {
      const writer = new ReplyWriter(res);
      if (turn.hang !== 'silent') writer.startStream(req.stream ? 'text/event-stream' : 'application/json');
      // Nothing more is sent: the response ends when the client goes away or `close()` cuts it.
      await writer.stall();
      return;
    }
    if (turn.search && !(handler.searchToolName && req.toolNames.includes(handler.searchToolName))) {
      // A provider searches only when the request offers its search tool.
      const tool = handler.searchToolName ?? 'a search tool';
      const message = `a search was scripted but the request offers no ${tool} tool (${handler.protocol})`;
      new ReplyWriter(res).json(400, handler.errorBody({ status: 400, message }));
      return;
    }
    const reply = this.plan(turn, handler, req);
    req.usage = reply.usage;
    const ctx = { reply, model: req.model, stream: req.stream, body: req.body, query: url.searchParams };
    const writer = new ReplyWriter(res, turn.chunkDelayMs ?? 0, turn.stallAfterEvents);
    await handler.write(writer, { ...ctx, nextId: this.nextId });
  }

  /** Fill in a reply turn's defaults: ids, arguments text, usage and finish reason. */
  private plan(turn: ScriptedReply, handler: ProtocolHandler, req: RecordedRequest): PlannedReply {
    const toolCalls = (turn.toolCalls ?? []).map((call) => ({
      id: call.id ?? this.nextId(handler.toolCallIdPrefix),
      name: call.name,
      arguments: call.rawArguments ?? JSON.stringify(call.input ?? {}),
    }));
    const text = turn.text ?? '';
    const counted = req.tokens === undefined ? undefined : { inputTokens: req.tokens, outputTokens: 20 };
    const scripted = turn.usage ?? counted ?? DEFAULT_USAGE;
    let usage = { cachedInputTokens: 0, cacheWriteTokens: 0, ...scripted };
    if (this.promptCache && handler.protocol === 'anthropic') {
      const written = text + toolCalls.map((c) => c.name + c.arguments).join('');
      const outputTokens = turn.usage?.outputTokens ?? Math.max(1, estimateTokens(written));
      usage = { ...this.promptCache.account(req.body), outputTokens };
    }
    return {
      text,
      textPieces: turn.textPieces ?? 3,
      toolCalls,
      usage,
      finish: turn.finish ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
      ...(turn.thinking ? { thinking: turn.thinking } : {}),
      ...(turn.search ? { search: turn.search } : {}),
    };
  }
}
