import { answerPieces, opaqueToken } from './search.js';
import type { PlannedReply, RequestSummary, ScriptedError, ToolResultRecord, WireJson } from './types.js';
import {
  type ProtocolHandler,
  parsedOrRaw,
  type ReplyWriter,
  resultText,
  splitInPieces,
  textOf,
  type WriteContext,
} from './wire.js';

/** Anthropic Messages API: `POST /v1/messages`, streamed as named SSE events. */

const STOP_REASON = { stop: 'end_turn', tool_calls: 'tool_use', length: 'max_tokens' } as const;

const ERROR_TYPE: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

function read(body: WireJson): RequestSummary {
  const messages: WireJson[] = Array.isArray(body?.messages) ? body.messages : [];
  const toolNameById = new Map<string, string>();
  let toolResults: ToolResultRecord[] = [];
  let lastUserText: string | undefined;
  for (const message of messages) {
    const blocks: WireJson[] = Array.isArray(message?.content) ? message.content : [];
    if (message?.role === 'assistant') {
      // Results sent back are those after the last assistant turn; older ones were recorded before.
      toolResults = [];
      for (const b of blocks) if (b?.type === 'tool_use') toolNameById.set(b.id, b.name);
      continue;
    }
    const text = textOf(message?.content);
    if (text) lastUserText = text;
    for (const b of blocks) {
      if (b?.type !== 'tool_result') continue;
      toolResults.push({
        id: b.tool_use_id,
        name: toolNameById.get(b.tool_use_id),
        content: resultText(b.content),
        ...(b.is_error === true ? { isError: true } : {}),
      });
    }
  }
  const systemText = textOf(body?.system) || undefined;
  return {
    model: body?.model,
    stream: body?.stream === true,
    toolNames: Array.isArray(body?.tools) ? body.tools.map((t: WireJson) => t?.name) : [],
    toolResults,
    lastUserText,
    systemText,
  };
}

function errorBody(error: ScriptedError): unknown {
  const type = error.type ?? ERROR_TYPE[error.status] ?? 'api_error';
  return { type: 'error', error: { type, message: error.message ?? `scripted ${type} (${error.status})` } };
}

/** A content block as the non-streaming API has it; streamed, each becomes start, deltas, stop. */
type Block = Record<string, WireJson>;

/** The search's blocks: the server tool call, its results, then the answer with its citations. */
function searchBlocks(reply: PlannedReply, nextId: WriteContext['nextId']): Block[] {
  const search = reply.search!;
  const id = nextId('srvtoolu_');
  const results = search.results.map((r) => ({
    type: 'web_search_result',
    title: r.title,
    url: r.url,
    encrypted_content: opaqueToken(r.url),
    page_age: r.pageAge ?? null,
  }));
  const text = answerPieces(reply).map((piece) => ({
    type: 'text',
    text: piece.text,
    ...(piece.cites
      ? {
          citations: [
            {
              type: 'web_search_result_location',
              cited_text: piece.cites.citedText,
              url: piece.cites.url,
              title: piece.cites.title,
              encrypted_index: opaqueToken(piece.cites.url),
            },
          ],
        }
      : {}),
  }));
  return [
    { type: 'server_tool_use', id, name: 'web_search', input: { query: search.query } },
    {
      type: 'web_search_tool_result',
      tool_use_id: id,
      content: search.failed ? { type: 'web_search_tool_result_error', error_code: search.failed } : results,
    },
    ...text,
  ];
}

/** The reply's content blocks, in order. */
function contentBlocks(reply: PlannedReply, nextId: WriteContext['nextId']): Block[] {
  const blocks: Block[] = [];
  if (reply.thinking)
    blocks.push({ type: 'thinking', thinking: reply.thinking.text, signature: reply.thinking.signature });
  if (reply.search) blocks.push(...searchBlocks(reply, nextId));
  else if (reply.text) blocks.push({ type: 'text', text: reply.text });
  // The non-streaming API carries the input as an object; unparsable raw arguments go as a string.
  for (const c of reply.toolCalls)
    blocks.push({
      type: 'tool_use',
      id: c.id,
      name: c.name,
      input: parsedOrRaw(c.arguments),
      raw: c.arguments,
    });
  return blocks;
}

/** One block as stream events: it opens empty and its content follows in deltas. */
async function streamBlock(out: ReplyWriter, index: number, block: Block, textPieces: number): Promise<void> {
  const delta = (d: object) =>
    out.event('content_block_delta', { type: 'content_block_delta', index, delta: d });
  const start = (content_block: object) =>
    out.event('content_block_start', { type: 'content_block_start', index, content_block });
  if (block.type === 'thinking') {
    await start({ type: 'thinking', thinking: '', signature: '' });
    for (const thinking of splitInPieces(block.thinking)) await delta({ type: 'thinking_delta', thinking });
    await delta({ type: 'signature_delta', signature: block.signature });
  } else if (block.type === 'text') {
    await start({ type: 'text', text: '' });
    for (const citation of block.citations ?? []) await delta({ type: 'citations_delta', citation });
    for (const text of splitInPieces(block.text, block.citations ? 1 : textPieces))
      await delta({ type: 'text_delta', text });
  } else if (block.type === 'tool_use' || block.type === 'server_tool_use') {
    const { raw, ...opened } = block;
    await start({ ...opened, input: {} });
    for (const partial_json of splitInPieces(raw ?? JSON.stringify(block.input)))
      await delta({ type: 'input_json_delta', partial_json });
  } else {
    // Results arrive whole, in the block's start.
    await start(block);
  }
  await out.event('content_block_stop', { type: 'content_block_stop', index });
}

export const anthropic: ProtocolHandler = {
  protocol: 'anthropic',
  toolCallIdPrefix: 'toolu_',
  searchToolName: 'web_search',
  read,
  errorBody,
  async write(out, { reply, model = 'claude-fake', stream, nextId }) {
    const id = nextId('msg_');
    const stopReason = STOP_REASON[reply.finish];
    // Anthropic's input_tokens are those neither read from nor written to the cache.
    const { inputTokens, cachedInputTokens, cacheWriteTokens } = reply.usage;
    const usage = {
      input_tokens: inputTokens - cachedInputTokens - cacheWriteTokens,
      output_tokens: reply.usage.outputTokens,
      cache_creation_input_tokens: cacheWriteTokens,
      cache_read_input_tokens: cachedInputTokens,
      ...(reply.search ? { server_tool_use: { web_search_requests: 1 } } : {}),
    };
    const blocks = contentBlocks(reply, nextId);
    if (!stream) {
      const content = blocks.map(({ raw: _, ...block }) => block);
      const message = { id, type: 'message', role: 'assistant', model, content };
      out.json(200, { ...message, stop_reason: stopReason, stop_sequence: null, usage });
      return;
    }
    out.startStream();
    const message = { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null };
    await out.event('message_start', {
      type: 'message_start',
      message: { ...message, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
    });
    await out.event('ping', { type: 'ping' });
    for (const [index, block] of blocks.entries()) await streamBlock(out, index, block, reply.textPieces);
    await out.event('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: reply.usage.outputTokens },
    });
    await out.event('message_stop', { type: 'message_stop' });
    out.end();
  },
};

/** `POST /v1/messages/count_tokens`: a rough count, a token per 4 characters of the body. */
export function anthropicCountTokens(rawBody: string): unknown {
  return { input_tokens: Math.max(1, Math.ceil(rawBody.length / 4)) };
}
