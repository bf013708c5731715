import { openaiErrorBody } from './openai_chat.js';
import { answerPieces } from './search.js';
import type { PlannedReply, RequestSummary, ScriptedSearch, ToolResultRecord, WireJson } from './types.js';
import { nowSeconds, type ProtocolHandler, resultText, splitInPieces, textOf } from './wire.js';

/** OpenAI Responses API: `POST /v1/responses`, streamed as named, numbered `response.*` events. */

/** Input items that are the model's own earlier output: tool results before them are old. */
const MODEL_OUTPUT_ITEMS = new Set(['function_call', 'custom_tool_call', 'item_reference', 'reasoning']);

function read(body: WireJson): RequestSummary {
  const items: WireJson[] = Array.isArray(body?.input) ? body.input : [];
  const toolNameById = new Map<string, string>();
  const system: string[] = typeof body?.instructions === 'string' ? [body.instructions] : [];
  let toolResults: ToolResultRecord[] = [];
  let lastUserText: string | undefined = typeof body?.input === 'string' ? body.input : undefined;
  for (const item of items) {
    if (item?.role === 'system' || item?.role === 'developer') system.push(textOf(item.content));
    else if (item?.role === 'user') {
      const text = textOf(item.content);
      if (text) lastUserText = text;
    } else if (item?.role === 'assistant' || MODEL_OUTPUT_ITEMS.has(item?.type)) {
      toolResults = [];
      if (item.call_id) toolNameById.set(item.call_id, item.name);
    } else if (item?.type === 'function_call_output' || item?.type === 'custom_tool_call_output') {
      // The format has no error flag: a failed tool's output is just text.
      toolResults.push({
        id: item.call_id,
        name: toolNameById.get(item.call_id),
        content: resultText(item.output),
      });
    }
  }
  return {
    model: body?.model,
    stream: body?.stream === true,
    toolNames: Array.isArray(body?.tools) ? body.tools.map((t: WireJson) => t?.name ?? t?.type) : [],
    toolResults,
    lastUserText,
    systemText: system.filter(Boolean).join('\n') || undefined,
  };
}

/** OpenAI tags the links its search cites. */
const citedUrl = (url: string) => `${url}${url.includes('?') ? '&' : '?'}utm_source=openai`;

/**
 * A searching reply's answer text, each cited line followed by a Markdown link to its page, and
 * the url_citation annotations over those links (offsets in UTF-16 code units, as OpenAI counts).
 */
function citedAnswer(reply: PlannedReply): { text: string; annotations: WireJson[] } {
  let text = '';
  const annotations: WireJson[] = [];
  for (const piece of answerPieces(reply)) {
    text += piece.text;
    if (!piece.cites) continue;
    const url = citedUrl(piece.cites.url);
    const link = `[${new URL(piece.cites.url).hostname}](${url})`;
    const start_index = text.length + 2;
    text += ` (${link})`;
    annotations.push({
      type: 'url_citation',
      start_index,
      end_index: start_index + link.length,
      url,
      title: piece.cites.title,
    });
  }
  return { text, annotations };
}

/** The search as a web_search_call item; its sources only when the request asked to include them. */
function searchCall(search: ScriptedSearch, id: string, body: WireJson): WireJson {
  const include: unknown[] = Array.isArray(body?.include) ? body.include : [];
  const sources = include.includes('web_search_call.action.sources')
    ? { sources: search.results.map((r) => ({ type: 'url', url: r.url })) }
    : {};
  return {
    id,
    type: 'web_search_call',
    status: search.failed ? 'failed' : 'completed',
    action: { type: 'search', query: search.query, ...sources },
  };
}

export const openaiResponses: ProtocolHandler = {
  protocol: 'openai-responses',
  toolCallIdPrefix: 'call_',
  searchToolName: 'web_search',
  read,
  errorBody: openaiErrorBody,
  async write(out, { reply, model = 'gpt-fake', stream, body, nextId }) {
    const usage = {
      input_tokens: reply.usage.inputTokens,
      input_tokens_details: { cached_tokens: reply.usage.cachedInputTokens },
      output_tokens: reply.usage.outputTokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: reply.usage.inputTokens + reply.usage.outputTokens,
    };
    const search = reply.search ? searchCall(reply.search, nextId('ws_'), body) : undefined;
    const answer = reply.search ? citedAnswer(reply) : { text: reply.text, annotations: [] };
    const textPart = { type: 'output_text', text: answer.text, annotations: answer.annotations };
    const message = answer.text
      ? { id: nextId('msg_'), type: 'message', status: 'completed', role: 'assistant', content: [textPart] }
      : undefined;
    const calls = reply.toolCalls.map((c) => ({
      id: nextId('fc_'),
      type: 'function_call',
      status: 'completed',
      call_id: c.id,
      name: c.name,
      arguments: c.arguments,
    }));
    const output = [...(search ? [search] : []), ...(message ? [message] : []), ...calls];
    // Running out of tokens is reported as an incomplete response, not as a finish reason.
    const incomplete = reply.finish === 'length';
    const response = {
      id: nextId('resp_'),
      object: 'response',
      created_at: nowSeconds(),
      model,
      error: null,
      incomplete_details: null,
      parallel_tool_calls: true,
      tool_choice: 'auto',
      tools: [],
    };
    const finished = {
      ...response,
      status: incomplete ? 'incomplete' : 'completed',
      incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
      output,
      usage,
    };
    if (!stream) {
      out.json(200, finished);
      return;
    }
    let sequence = 0;
    const emit = (type: string, data: object) =>
      out.event(type, { type, sequence_number: sequence++, ...data });
    out.startStream();
    const started = { ...response, status: 'in_progress', output: [], usage: null };
    await emit('response.created', { response: started });
    await emit('response.in_progress', { response: started });
    let output_index = 0;
    if (search) {
      const at = { output_index, item_id: search.id };
      const { action: _, ...started } = search;
      await emit('response.output_item.added', { output_index, item: { ...started, status: 'in_progress' } });
      for (const phase of [
        'in_progress',
        'searching',
        ...(search.status === 'completed' ? ['completed'] : []),
      ])
        await emit(`response.web_search_call.${phase}`, at);
      await emit('response.output_item.done', { output_index, item: search });
      output_index++;
    }
    if (message) {
      const at = { item_id: message.id, output_index, content_index: 0 };
      await emit('response.output_item.added', {
        output_index,
        item: { ...message, status: 'in_progress', content: [] },
      });
      await emit('response.content_part.added', { ...at, part: { ...textPart, text: '', annotations: [] } });
      for (const delta of splitInPieces(answer.text, reply.textPieces)) {
        await emit('response.output_text.delta', { ...at, delta, logprobs: [] });
      }
      for (const [annotation_index, annotation] of answer.annotations.entries())
        await emit('response.output_text.annotation.added', { ...at, annotation_index, annotation });
      await emit('response.output_text.done', { ...at, text: answer.text, logprobs: [] });
      await emit('response.content_part.done', { ...at, part: textPart });
      await emit('response.output_item.done', { output_index, item: message });
      output_index++;
    }
    for (const call of calls) {
      const at = { item_id: call.id, output_index };
      await emit('response.output_item.added', {
        output_index,
        item: { ...call, status: 'in_progress', arguments: '' },
      });
      for (const delta of splitInPieces(call.arguments)) {
        await emit('response.function_call_arguments.delta', { ...at, delta });
      }
      await emit('response.function_call_arguments.done', { ...at, arguments: call.arguments });
      await emit('response.output_item.done', { output_index, item: call });
      output_index++;
    }
    await emit(incomplete ? 'response.incomplete' : 'response.completed', { response: finished });
    out.end();
  },
};
