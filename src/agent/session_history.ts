import type { SessionEvent } from '../session/log.js';
import type { ConversationMessage } from './model_stream.js';

/**
 * The conversation to resume from a session log: the latest compacted conversation, if any,
 * then every message recorded after it.
 */
export function historyFromEvents(events: SessionEvent[]): ConversationMessage[] {
  let messages: ConversationMessage[] = [];
  for (const event of events) {
    if (event.type === 'compacted_messages' && Array.isArray(event.messages)) {
      messages = [...(event.messages as ConversationMessage[])];
    } else if (event.type === 'model_message' && event.message) {
      messages.push(event.message as ConversationMessage);
    }
  }
  // A run killed mid-turn may end with an assistant tool call whose results never came back.
  while (messages.length > 0) {
    const last = messages[messages.length - 1];
    const pendingCalls =
      last.role === 'assistant' &&
      typeof last.content !== 'string' &&
      last.content.some((p) => p.type === 'tool-call');
    if (!pendingCalls) break;
    messages.pop();
  }
  return messages;
}
