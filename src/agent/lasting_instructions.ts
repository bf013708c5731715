import type { ConversationMessage } from './model_stream.js';

/**
 * Lasting instructions are marked by the user: a prompt that starts with `#` (typed, or sent by
 * `/pin TEXT`) holds one instruction per `#` line. They are found again in the conversation
 * itself, so a resumed or compacted session keeps them with no record of its own.
 */
const MARK = '#';

/** The first text of a user message, or undefined. */
function firstText(message: ConversationMessage): string | undefined {
  if (message.role !== 'user') return undefined;
  const first = message.content[0];
  return first?.type === 'text' ? first.text : undefined;
}

/** The `#` lines of one prompt, as typed (trimmed of trailing space), or none. */
export function markedLines(text: string): string[] {
  if (!text.startsWith(MARK)) return [];
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.startsWith(MARK) && line.slice(1).trim() !== '');
}

/** Every lasting instruction of the conversation, in order, each once. */
export function lastingInstructions(messages: readonly ConversationMessage[]): string[] {
  const found = new Set<string>();
  for (const message of messages) {
    const text = firstText(message);
    if (text !== undefined) for (const line of markedLines(text)) found.add(line);
  }
  return [...found];
}

/** The message that carries the lasting instructions in a compacted conversation. */
export function lastingMessageText(lines: readonly string[]): string {
  return `${lines.join('\n')}\n\n(The user's lasting instructions above are kept word for word for the whole session; follow them.)`;
}

/** A text-protocol tool result travels as a user message: it is no prompt. */
const isToolResultText = (text: string) => text.startsWith('<tool_result');

/**
 * The user's latest prompt: `known` when the agent sent it and it is still in the conversation,
 * else the last user message whose text is not a tool result.
 */
export function latestUserMessage(
  messages: readonly ConversationMessage[],
  known?: ConversationMessage,
): ConversationMessage | undefined {
  if (known && messages.includes(known)) return known;
  for (let i = messages.length - 1; i >= 0; i--) {
    const text = firstText(messages[i]);
    if (text !== undefined && !isToolResultText(text)) return messages[i];
  }
  return undefined;
}
