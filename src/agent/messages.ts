import type { ToolCall } from '../tool/run_call.js';
import type { ImageBlock, ToolResult } from '../tool/types.js';
import type { ConversationMessage, ModelStreamEvent } from './model_stream.js';
import { formatTextToolResult } from './text_tools.js';

/** What an assistant message carries once its stream is done. */
export interface AssistantTurn {
  text: string;
  calls: ToolCall[];
  /** The model's reasoning blocks: sent back as they came (Anthropic refuses tool use without them). */
  reasoning?: Array<Extract<ModelStreamEvent, { type: 'reasoning' }>>;
}

type AssistantMessage = Extract<ConversationMessage, { role: 'assistant' }>;
type ToolMessage = Extract<ConversationMessage, { role: 'tool' }>;
type ToolOutput = Extract<ToolMessage['content'][number], { type: 'tool-result' }>['output'];

/** A user message: the text, then any images attached to it. */
export function userMessage(text: string, images: readonly ImageBlock[] = []): ConversationMessage {
  return {
    role: 'user',
    content: [
      { type: 'text', text },
      ...images.map((image) => ({ type: 'file' as const, data: image.data, mediaType: image.mediaType })),
    ],
  };
}

/** The input as the model should see it again in history: an object, never a raw broken string. */
function historyInput(input: unknown): unknown {
  return input !== null && typeof input === 'object' ? input : {};
}

export function assistantMessage(turn: AssistantTurn, nativeTools: boolean): AssistantMessage {
  if (!nativeTools) return { role: 'assistant', content: [{ type: 'text', text: turn.text }] };
  const content: AssistantMessage['content'] = [];
  for (const block of turn.reasoning ?? []) {
    content.push({
      type: 'reasoning',
      text: block.text,
      ...(block.providerMetadata ? { providerOptions: block.providerMetadata } : {}),
    });
  }
  if (turn.text) content.push({ type: 'text', text: turn.text });
  for (const call of turn.calls) {
    content.push({
      type: 'tool-call',
      toolCallId: call.id,
      toolName: call.name,
      input: historyInput(call.input),
    });
  }
  return { role: 'assistant', content };
}

function toolOutput(result: ToolResult): ToolOutput {
  if (result.images && result.images.length > 0) {
    return {
      type: 'content',
      value: [
        { type: 'text', text: result.text },
        ...result.images.map((image) => ({
          type: 'image-data' as const,
          data: image.data,
          mediaType: image.mediaType,
        })),
      ],
    };
  }
  return result.isError ? { type: 'error-text', value: result.text } : { type: 'text', value: result.text };
}

/** Tool results as the next message: native tool-result parts, or `<tool_result>` text. */
export function resultsMessage(
  results: Array<{ call: ToolCall; result: ToolResult }>,
  nativeTools: boolean,
): ConversationMessage | undefined {
  if (results.length === 0) return undefined;
  if (!nativeTools) {
    return userMessage(
      results
        .map(({ call, result }) => formatTextToolResult(call.name, result.text, result.isError))
        .join('\n'),
    );
  }
  return {
    role: 'tool',
    content: results.map(({ call, result }) => ({
      type: 'tool-result' as const,
      toolCallId: call.id,
      toolName: call.name,
      output: toolOutput(result),
    })),
  };
}

/** The plain text of a message, for summaries and transcripts. */
export function messageText(message: ConversationMessage, limit = 500): string {
  return message.content
    .map((part) => {
      if (part.type === 'text') return part.text;
      if (part.type === 'tool-call')
        return `[called ${part.toolName} ${JSON.stringify(part.input).slice(0, 300)}]`;
      if (part.type === 'tool-result') {
        const output = part.output as { value?: unknown };
        const value = typeof output.value === 'string' ? output.value : JSON.stringify(output.value);
        return `[result of ${part.toolName}: ${String(value).slice(0, limit)}]`;
      }
      return '';
    })
    .join('\n');
}
