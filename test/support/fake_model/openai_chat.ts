import type { RequestSummary, ScriptedError, ToolResultRecord, WireJson } from './types.js';
import { nowSeconds, type ProtocolHandler, resultText, splitInPieces, textOf } from './wire.js';

/** OpenAI Chat Completions: `POST /v1/chat/completions`, streamed as unnamed `data:` chunks ending in [DONE]. */

/** The error JSON both OpenAI APIs (and most compatible servers) answer with. */
export function openaiErrorBody(error: ScriptedError): unknown {
  const type = error.type ?? (error.status >= 500 ? 'server_error' : 'invalid_request_error');
  const code = error.status === 429 ? 'rate_limit_exceeded' : error.status === 401 ? 'invalid_api_key' : null;
  return {
    error: { message: error.message ?? `scripted ${type} (${error.status})`, type, param: null, code },
  };
}

function read(body: WireJson): RequestSummary {
  const messages: WireJson[] = Array.isArray(body?.messages) ? body.messages : [];
  const toolNameById = new Map<string, string>();
  const system: string[] = [];
  let toolResults: ToolResultRecord[] = [];
  let lastUserText: string | undefined;
  for (const message of messages) {
    switch (message?.role) {
      case 'system':
      case 'developer':
        system.push(textOf(message.content));
        break;
      case 'user': {
        const text = textOf(message.content);
        if (text) lastUserText = text;
        break;
      }
      case 'assistant':
        // Results sent back are those after the last assistant turn.
        toolResults = [];
        for (const call of message.tool_calls ?? []) toolNameById.set(call?.id, call?.function?.name);
        break;
      case 'tool':
        toolResults.push({
          id: message.tool_call_id,
          name: toolNameById.get(message.tool_call_id),
          content: resultText(message.content),
        });
        break;
    }
  }
  return {
    model: body?.model,
    stream: body?.stream === true,
    toolNames: Array.isArray(body?.tools)
      ? body.tools.map((t: WireJson) => t?.function?.name ?? t?.name)
      : [],
    toolResults,
    lastUserText,
    systemText: system.filter(Boolean).join('\n') || undefined,
  };
}

export const openaiChat: ProtocolHandler = {
  protocol: 'openai-chat',
  toolCallIdPrefix: 'call_',
  read,
  errorBody: openaiErrorBody,
  async write(out, { reply, model = 'gpt-fake', stream, body, nextId }) {
    const id = nextId('chatcmpl-');
    const created = nowSeconds();
    const usage = {
      prompt_tokens: reply.usage.inputTokens,
      completion_tokens: reply.usage.outputTokens,
      total_tokens: reply.usage.inputTokens + reply.usage.outputTokens,
      prompt_tokens_details: { cached_tokens: reply.usage.cachedInputTokens },
      completion_tokens_details: { reasoning_tokens: 0 },
    };
    const toolCalls = reply.toolCalls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: c.arguments },
    }));
    if (!stream) {
      const message = {
        role: 'assistant',
        content: reply.text || null,
        refusal: null,
        ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
      };
      const choice = { index: 0, message, logprobs: null, finish_reason: reply.finish };
      out.json(200, { id, object: 'chat.completion', created, model, choices: [choice], usage });
      return;
    }
    // Usage comes only when asked for, as the real API does; then every other chunk says `usage: null`.
    const wantsUsage = body?.stream_options?.include_usage === true;
    const chunk = (delta: unknown, finish_reason: string | null = null) => ({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason }],
      ...(wantsUsage ? { usage: null } : {}),
    });
    out.startStream();
    // A tool-call-only reply opens with `content: null`; an empty string would be seen as a text part.
    await out.event(undefined, chunk({ role: 'assistant', content: reply.text ? '' : null, refusal: null }));
    for (const content of splitInPieces(reply.text, reply.textPieces))
      await out.event(undefined, chunk({ content }));
    for (const [index, call] of toolCalls.entries()) {
      const opening = {
        index,
        id: call.id,
        type: 'function',
        function: { name: call.function.name, arguments: '' },
      };
      await out.event(undefined, chunk({ tool_calls: [opening] }));
      for (const piece of splitInPieces(call.function.arguments)) {
        await out.event(undefined, chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
      }
    }
    await out.event(undefined, chunk({}, reply.finish));
    if (wantsUsage) {
      await out.event(undefined, { id, object: 'chat.completion.chunk', created, model, choices: [], usage });
    }
    await out.event(undefined, '[DONE]');
    out.end();
  },
};
