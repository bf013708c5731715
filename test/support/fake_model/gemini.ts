import { answerPieces } from './search.js';
import type { PlannedReply, RequestSummary, ScriptedError, ToolResultRecord, WireJson } from './types.js';
import { type ProtocolHandler, parsedOrRaw, splitInPieces, textOf } from './wire.js';

/**
 * Gemini API: `POST /v1beta/models/MODEL:streamGenerateContent?alt=sse` and `:generateContent`.
 * The model and whether to stream come from the path, not the body.
 */

const FINISH_REASON = { stop: 'STOP', tool_calls: 'STOP', length: 'MAX_TOKENS' } as const;

const ERROR_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** A functionResponse's payload as text: the AI SDK sends `{name, content}`, Gemini CLI `{output}` or `{error}`. */
function functionResponseResult(part: WireJson): ToolResultRecord {
  const response = part.response ?? {};
  const asText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
  const base = { ...(part.id ? { id: part.id } : {}), name: part.name };
  if (response.error != null) return { ...base, content: asText(response.error), isError: true };
  if (response.content != null) return { ...base, content: asText(response.content) };
  if (response.output != null) return { ...base, content: asText(response.output) };
  return { ...base, content: JSON.stringify(response) };
}

function read(body: WireJson): RequestSummary {
  const contents: WireJson[] = Array.isArray(body?.contents) ? body.contents : [];
  let toolResults: ToolResultRecord[] = [];
  let lastUserText: string | undefined;
  for (const content of contents) {
    const parts: WireJson[] = Array.isArray(content?.parts) ? content.parts : [];
    if (content?.role === 'model') {
      toolResults = [];
      continue;
    }
    const text = textOf(parts);
    if (text) lastUserText = text;
    for (const part of parts)
      if (part?.functionResponse) toolResults.push(functionResponseResult(part.functionResponse));
  }
  const declarations = (Array.isArray(body?.tools) ? body.tools : []).flatMap(
    (t: WireJson) => t?.functionDeclarations ?? t?.function_declarations ?? [],
  );
  // Google Search grounding is a tool without declarations; it is named as the API names it.
  const searches = (Array.isArray(body?.tools) ? body.tools : []).some(
    (t: WireJson) => t?.googleSearch || t?.google_search,
  );
  return {
    stream: false,
    toolNames: [...declarations.map((d: WireJson) => d?.name), ...(searches ? ['google_search'] : [])],
    toolResults,
    lastUserText,
    systemText: textOf(body?.systemInstruction?.parts ?? body?.system_instruction?.parts) || undefined,
  };
}

function errorBody(error: ScriptedError): unknown {
  const status = error.type ?? ERROR_STATUS[error.status] ?? 'UNKNOWN';
  return {
    error: { code: error.status, message: error.message ?? `scripted ${status} (${error.status})`, status },
  };
}

/**
 * A searching reply's answer and its grounding: a chunk per result, a support per cited line.
 * Segment offsets count UTF-8 bytes, and a zero start is left out, as the API does.
 */
function groundedAnswer(reply: PlannedReply): { text: string; groundingMetadata: WireJson } {
  const search = reply.search!;
  let text = '';
  const groundingSupports: WireJson[] = [];
  for (const piece of answerPieces(reply)) {
    const startIndex = Buffer.byteLength(text);
    text += piece.text;
    if (!piece.cites) continue;
    const segment = {
      ...(startIndex > 0 ? { startIndex } : {}),
      endIndex: Buffer.byteLength(text),
      text: piece.text,
    };
    groundingSupports.push({ segment, groundingChunkIndices: [search.results.indexOf(piece.cites)] });
  }
  const groundingMetadata = {
    searchEntryPoint: { renderedContent: '<style>.container{}</style><div class="container">…</div>' },
    groundingChunks: search.results.map((r) => ({ web: { uri: r.url, title: r.title } })),
    groundingSupports,
    webSearchQueries: [search.query],
  };
  return { text, groundingMetadata };
}

export const gemini: ProtocolHandler = {
  protocol: 'gemini',
  toolCallIdPrefix: 'call_',
  searchToolName: 'google_search',
  read,
  errorBody,
  async write(out, { reply, model = 'gemini-fake', stream, query, nextId }) {
    const responseId = nextId('gresp_');
    const usageMetadata = {
      promptTokenCount: reply.usage.inputTokens,
      candidatesTokenCount: reply.usage.outputTokens,
      totalTokenCount: reply.usage.inputTokens + reply.usage.outputTokens,
      ...(reply.usage.cachedInputTokens > 0
        ? { cachedContentTokenCount: reply.usage.cachedInputTokens }
        : {}),
    };
    // Real Gemini sends args as an object; unparsable raw arguments go as a string, which the AI SDK passes on.
    const callParts = reply.toolCalls.map((c) => ({
      functionCall: { id: c.id, name: c.name, args: parsedOrRaw(c.arguments) },
    }));
    const grounded = reply.search ? groundedAnswer(reply) : undefined;
    const text = grounded?.text ?? reply.text;
    // The grounding comes with the last chunk, beside the finish reason.
    const response = (parts: unknown[], last: boolean) => ({
      candidates: [
        {
          content: { role: 'model', parts },
          index: 0,
          ...(last ? { finishReason: FINISH_REASON[reply.finish] } : {}),
          ...(last && grounded ? { groundingMetadata: grounded.groundingMetadata } : {}),
        },
      ],
      ...(last ? { usageMetadata } : {}),
      modelVersion: model,
      responseId,
    });
    if (!stream) {
      out.json(200, response([...(text ? [{ text }] : []), ...callParts], true));
      return;
    }
    // Text arrives in pieces; function calls arrive whole, together, in the last chunk.
    const chunks: unknown[][] = splitInPieces(text, reply.textPieces).map((piece) => [{ text: piece }]);
    if (callParts.length > 0 || chunks.length === 0) chunks.push(callParts);
    const bodies = chunks.map((parts, i) => response(parts, i === chunks.length - 1));
    if (query.get('alt') === 'sse') {
      out.startStream('text/event-stream', '\r\n');
      for (const b of bodies) await out.event(undefined, b);
    } else {
      // Without alt=sse the API streams one JSON array, element by element.
      out.startStream('application/json');
      for (const [i, b] of bodies.entries()) await out.raw(`${i === 0 ? '[' : ',\r\n'}${JSON.stringify(b)}`);
      await out.raw(']');
    }
    out.end();
  },
};

/** `POST /v1beta/models/MODEL:countTokens`: a rough count, a token per 4 characters of the body. */
export function geminiCountTokens(rawBody: string): unknown {
  return { totalTokens: Math.max(1, Math.ceil(rawBody.length / 4)) };
}
