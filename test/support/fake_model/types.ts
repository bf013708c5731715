/** The four provider wire formats the fake server speaks. */
export type Protocol = 'anthropic' | 'openai-chat' | 'openai-responses' | 'gemini';

export interface ScriptedToolCall {
  /** Defaults to `toolu_<n>` (Anthropic) or `call_<n>` (the others), counted per server. */
  id?: string;
  name: string;
  input?: unknown;
  /** Sent verbatim instead of `JSON.stringify(input)`: for malformed-JSON tests. */
  rawArguments?: string;
}

export interface ScriptedError {
  status: number;
  message?: string;
  retryAfterSeconds?: number;
  /** The provider's error type, e.g. 'overloaded_error' for an Anthropic 529. */
  type?: string;
}

export interface ScriptedReply {
  text?: string;
  toolCalls?: ScriptedToolCall[];
  /**
   * `inputTokens` counts every input token; `cachedInputTokens` and `cacheWriteTokens` (default 0)
   * are the parts of it read from and written to the prompt cache. With the server's
   * `promptCache` emulation on, Anthropic replies count their input from the request instead.
   */
  usage?: ReplyUsage;
  /** Sleep between stream events. */
  chunkDelayMs?: number;
  /** How many stream events carry the text (default 3): a long answer as the APIs stream it, a piece per token. */
  textPieces?: number;
  /** Send this many stream events, then nothing more, holding the connection open (a stalled stream). */
  stallAfterEvents?: number;
  /** Defaults to 'tool_calls' when there are tool calls, else 'stop'. */
  finish?: 'stop' | 'tool_calls' | 'length';
  /** A thinking block before the reply, with its signature (Anthropic only). */
  thinking?: { text: string; signature: string };
  /**
   * A search the provider ran with its own search tool before answering (Anthropic, OpenAI
   * Responses, Gemini); the request must offer that tool, else the reply is a 400 error.
   */
  search?: ScriptedSearch;
}

/**
 * A provider's own web search, written in its wire format: Anthropic's server_tool_use and
 * web_search_tool_result blocks and text citations, OpenAI's web_search_call item and url_citation
 * annotations, Gemini's groundingMetadata. The answer is the reply's text, then a line for each
 * result that has `citedText`, citing it.
 */
export interface ScriptedSearch {
  query: string;
  results: ScriptedSearchResult[];
  /**
   * The search failed with this code: Anthropic's web_search_tool_result_error (e.g.
   * 'too_many_requests'), OpenAI's web_search_call with status 'failed' (Gemini has none);
   * script no results with it.
   */
  failed?: string;
}

export interface ScriptedSearchResult {
  title: string;
  url: string;
  /** How old the page is, as Anthropic says it ("3 days ago"); only Anthropic sends it. */
  pageAge?: string;
  /** A line of the answer that cites this page (Anthropic: also its cited_text). */
  citedText?: string;
}

export type ScriptedTurn =
  | ScriptedReply
  | { error: ScriptedError }
  /**
   * Accept the request and send nothing more until the client goes away or the server closes:
   * `true` sends the response headers first; `'silent'` not even those (no byte at all).
   */
  | { hang: true | 'silent' }
  /** Decide from the request. */
  | { respond: (req: RecordedRequest) => ScriptedTurn };

export interface ReplyUsage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens?: number;
  cacheWriteTokens?: number;
}

export interface ToolResultRecord {
  id?: string;
  name?: string;
  content: string;
  isError?: boolean;
}

export interface RecordedRequest {
  protocol: Protocol | 'unknown';
  /** What the route was: a model call (consumes a turn), a token count, a model listing, or no route. */
  kind: 'model' | 'count_tokens' | 'models' | 'unknown';
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Parsed JSON, or the raw text when the body is not JSON. */
  body: WireJson;
  stream: boolean;
  model?: string;
  toolNames: string[];
  /** The tool results the client sent back in this request, normalised across protocols. */
  toolResults: ToolResultRecord[];
  /** The plain text of the last user message that has text (tool-result-only messages are skipped). */
  lastUserText?: string;
  systemText?: string;
  /** The request's tokens as the server counted them (`countTokens` option; see request_tokens.ts). */
  tokens?: number;
  /** The usage the reply reported (model requests answered with a reply). */
  usage?: PlannedReply['usage'];
}

/** The protocol-specific fields a reader pulls out of a request body. */
export type RequestSummary = Pick<
  RecordedRequest,
  'model' | 'stream' | 'toolNames' | 'toolResults' | 'lastUserText' | 'systemText'
>;

/** A reply turn with every default filled in, ready for a protocol writer. */
export interface PlannedReply {
  text: string;
  /** Stream events the text comes in. */
  textPieces: number;
  toolCalls: Array<{ id: string; name: string; arguments: string }>;
  usage: Required<ReplyUsage>;
  finish: 'stop' | 'tool_calls' | 'length';
  thinking?: { text: string; signature: string };
  search?: ScriptedSearch;
}

/**
 * A request or response body as a provider's wire format has it: JSON of four formats, read field
 * by field and defensively, as the real servers read it.
 */
// biome-ignore lint/suspicious/noExplicitAny: untyped wire JSON, checked field by field where it is read
export type WireJson = any;
