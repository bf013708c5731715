import type { AssistantModelMessage, ModelMessage, ToolModelMessage } from 'ai';
import type { ToolCall } from '../tool/run_call.js';
import type { ToolResult } from '../tool/types.js';
import { formatTextToolResult } from './text_tools.js';

/** What an assistant message carries once its stream is done. */
export interface AssistantTurn {
  text: string;
  calls: ToolCall[];
}

/** The input as the model should see it again in history: an object, never a raw broken string. */
function historyInput(input: unknown): unknown {
  return input !== null && typeof input === 'object' ? input : {};
}

export function assistantMessage(turn: AssistantTurn, nativeTools: boolean): AssistantModelMessage {
  if (!nativeTools) return { role: 'assistant', content: turn.text };
  const content: AssistantModelMessage['content'] = [];
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

function toolOutput(
  result: ToolResult,
): ToolModelMessage['content'][number] extends { output: infer O } ? O : never {
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
    } as never;
  }
  return (
    result.isError ? { type: 'error-text', value: result.text } : { type: 'text', value: result.text }
  ) as never;
}

/** Tool results as the next message: native tool-result parts, or `<tool_result>` text. */
export function resultsMessage(
  results: Array<{ call: ToolCall; result: ToolResult }>,
  nativeTools: boolean,
): ModelMessage | undefined {
  if (results.length === 0) return undefined;
  if (!nativeTools) {
    return {
      role: 'user',
      content: results
        .map(({ call, result }) => formatTextToolResult(call.name, result.text, result.isError))
        .join('\n'),
    };
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
