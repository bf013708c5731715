import type { SessionEvent } from '../session/event.js';
import type { ConversationMessage } from './model_stream.js';

type AssistantMessage = Extract<ConversationMessage, { role: 'assistant' }>;
type ToolMessage = Extract<ConversationMessage, { role: 'tool' }>;
type ToolResultPart = Extract<ToolMessage['content'][number], { type: 'tool-result' }>;

/** What the model is told of a call whose result never reached the log. */
export const INTERRUPTED_RESULT =
  'Interrupted: this call did not finish (the session was stopped, or its record was lost); its outcome is unknown. Check before running it again.';

/** Put first when the log lost the conversation's opening message: providers want a user turn first. */
const LOST_OPENING = '(The start of this conversation could not be read from the session log.)';

/**
 * The conversation to resume from a session log: the latest compacted conversation, if any,
 * then every message recorded after it, repaired so that a provider accepts it.
 */
export function historyFromEvents(events: SessionEvent[]): ConversationMessage[] {
  let messages: ConversationMessage[] = [];
  for (const event of events) {
    if (event.type === 'compacted_messages' && Array.isArray(event.messages)) {
      messages = [...(event.messages as ConversationMessage[])];
    } else if (event.type === 'model_message' && isMessage(event.message)) {
      messages.push(event.message);
    }
  }
  return repairConversation(messages);
}

/**
 * Pairs every tool call with its result, whatever the log lost (a damaged line, a run killed
 * mid-turn): results without their call are dropped, calls without a result get an
 * `INTERRUPTED_RESULT`, assistant turns that end up side by side are joined, and the
 * conversation opens with a user turn.
 */
export function repairConversation(messages: ConversationMessage[]): ConversationMessage[] {
  const repaired: ConversationMessage[] = [];
  // Calls of the last assistant turn still waiting for a result, by id.
  let pending = new Map<string, string>();
  const closePending = () => {
    if (pending.size === 0) return;
    const missing: ToolResultPart[] = [...pending].map(([toolCallId, toolName]) => ({
      type: 'tool-result',
      toolCallId,
      toolName,
      output: { type: 'error-text', value: INTERRUPTED_RESULT },
    }));
    const last = repaired[repaired.length - 1];
    if (last?.role === 'tool') last.content = [...last.content, ...missing];
    else repaired.push({ role: 'tool', content: missing });
    pending = new Map();
  };

  for (const message of messages) {
    if (message.role === 'tool') {
      const content = message.content.filter(
        (part) => part.type !== 'tool-result' || pending.delete(part.toolCallId),
      );
      if (!content.some((part) => part.type === 'tool-result')) continue;
      const last = repaired[repaired.length - 1];
      if (last?.role === 'tool') last.content = [...last.content, ...content];
      else repaired.push({ ...message, content });
      continue;
    }
    closePending();
    if (message.role === 'assistant') {
      const last = repaired[repaired.length - 1];
      const calls = toolCalls(message);
      if (last?.role === 'assistant') {
        // Two assistant turns in a row: the user turn between them was lost.
        last.content = [...last.content, ...message.content];
      } else {
        repaired.push({ ...message, content: [...message.content] });
      }
      for (const call of calls) pending.set(call.toolCallId, call.toolName);
      continue;
    }
    repaired.push(message);
  }
  closePending();
  if (repaired.length > 0 && repaired[0].role !== 'user')
    repaired.unshift({ role: 'user', content: [{ type: 'text', text: LOST_OPENING }] });
  return repaired;
}

function toolCalls(message: AssistantMessage): Array<{ toolCallId: string; toolName: string }> {
  return message.content.flatMap((part) =>
    part.type === 'tool-call' ? [{ toolCallId: part.toolCallId, toolName: part.toolName }] : [],
  );
}

/** A record from disk: only well-formed messages are kept. */
function isMessage(value: unknown): value is ConversationMessage {
  if (value === null || typeof value !== 'object') return false;
  const { role, content } = value as { role?: unknown; content?: unknown };
  return (role === 'user' || role === 'assistant' || role === 'tool') && Array.isArray(content);
}
