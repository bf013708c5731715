import type { RequestSummary, ScriptedError, ToolResultRecord, WireJson } from './types.js';
import { type ProtocolHandler, parsedOrRaw, resultText, splitInPieces, textOf } from './wire.js';

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

export const anthropic: ProtocolHandler = {
  protocol: 'anthropic',
  toolCallIdPrefix: 'toolu_',
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
    };
    if (!stream) {
      const content: unknown[] = reply.text ? [{ type: 'text', text: reply.text }] : [];
      // The non-streaming API carries the input as an object; unparsable raw arguments go as a string.
      for (const c of reply.toolCalls)
        content.push({ type: 'tool_use', id: c.id, name: c.name, input: parsedOrRaw(c.arguments) });
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
    let index = 0;
    if (reply.thinking) {
      const { text: thinking, signature } = reply.thinking;
      await out.event('content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      });
      for (const piece of splitInPieces(thinking)) {
        const delta = { type: 'thinking_delta', thinking: piece };
        await out.event('content_block_delta', { type: 'content_block_delta', index, delta });
      }
      const delta = { type: 'signature_delta', signature };
      await out.event('content_block_delta', { type: 'content_block_delta', index, delta });
      await out.event('content_block_stop', { type: 'content_block_stop', index });
      index++;
    }
    if (reply.text) {
      await out.event('content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'text', text: '' },
      });
      for (const text of splitInPieces(reply.text, reply.textPieces)) {
        const delta = { type: 'text_delta', text };
        await out.event('content_block_delta', { type: 'content_block_delta', index, delta });
      }
      await out.event('content_block_stop', { type: 'content_block_stop', index });
      index++;
    }
    for (const call of reply.toolCalls) {
      // The block opens with an empty input; the JSON text follows in pieces.
      const block = { type: 'tool_use', id: call.id, name: call.name, input: {} };
      await out.event('content_block_start', { type: 'content_block_start', index, content_block: block });
      for (const partial_json of splitInPieces(call.arguments)) {
        const delta = { type: 'input_json_delta', partial_json };
        await out.event('content_block_delta', { type: 'content_block_delta', index, delta });
      }
      await out.event('content_block_stop', { type: 'content_block_stop', index });
      index++;
    }
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
