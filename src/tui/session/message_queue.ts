import { userMessage } from '../../agent/messages.js';
import type { ConversationMessage } from '../../agent/model_stream.js';
import { recordMessage } from '../../agent/session_record.js';
import type { SessionLog } from '../../session/log.js';
import type { UiStore } from '../state/store.js';

/** Tools that end the run: a message queued behind them waits for the next prompt instead. */
const ENDING_TOOLS = /^(attempt_completion|qna_respond|structured_output)$/;

const NOTE =
  'The user sent this message while you were working. Acknowledge it with working_respond, take it into account, and go on:\n\n';

function toolNames(message: ConversationMessage): string[] | undefined {
  if (message.role === 'tool')
    return message.content.flatMap((part) => (part.type === 'tool-result' ? [part.toolName] : []));
  // Models without native tool calling get their results as `<tool_result name="…">` text.
  if (message.role === 'user' && message.content.length === 1 && message.content[0].type === 'text') {
    const names = [...message.content[0].text.matchAll(/^<tool_result name="([^"]+)"/gm)].map((m) => m[1]);
    return names.length > 0 ? names : undefined;
  }
  return undefined;
}

/**
 * Messages typed while the agent works. They join the conversation right after the results of
 * the step in progress, so the model reads them at its next step and answers with
 * working_respond; what is left when the run ends becomes the next prompt.
 */
export class MessageQueue {
  private items: Array<{ text: string; shown: string }> = [];

  constructor(
    private readonly store: UiStore,
    private readonly log: () => SessionLog | undefined,
  ) {}

  get size(): number {
    return this.items.length;
  }

  push(text: string, shown = text): void {
    this.items.push({ text, shown });
    this.store.setQueued(this.items.map((item) => item.shown));
    this.store.flush();
  }

  /** Everything still queued, as one prompt. */
  takeAll(): string | undefined {
    if (this.items.length === 0) return undefined;
    const text = this.items.map((item) => item.text).join('\n\n');
    this.items = [];
    this.store.setQueued([]);
    return text;
  }

  /** Called for each message the agent adds; after a step's tool results, the queue is delivered. */
  deliverAfter(message: ConversationMessage, conversation: ConversationMessage[]): void {
    if (this.items.length === 0) return;
    const names = toolNames(message);
    if (!names || names.some((name) => ENDING_TOOLS.test(name))) return;
    const items = this.items;
    this.items = [];
    const text = items.map((item) => item.text).join('\n\n');
    const delivered = userMessage(`${NOTE}${text}`);
    conversation.push(delivered);
    const log = this.log();
    recordMessage(log, delivered);
    log?.append({ type: 'user_message', text, queued: true });
    this.store.add({ kind: 'user', text: items.map((item) => item.shown).join('\n'), queued: true });
    this.store.setQueued([]);
  }
}
