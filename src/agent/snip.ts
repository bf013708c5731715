import type { SnipOutcome, SnipRequest } from '../tool/context/conversation.js';
import { messageTokens, partTokens, type TokenCounter } from './context_tokens.js';
import { lastingMessageText, latestUserMessage, markedLines } from './lasting_instructions.js';
import { messageText, userMessage } from './messages.js';
import type { ConversationMessage } from './model_stream.js';

type Removed = { id: string; what: string; tokens: number };
type Part = ConversationMessage['content'][number];

/** What cutting needs besides the conversation: the tokenizer and how the stub points back to the log. */
export interface SnipSetting {
  count: TokenCounter;
  /** Where the full text stays (`lathe sessions show ID`). */
  logHint: string;
  /** The prompt being worked on: it and what follows it stay. */
  latest?: ConversationMessage;
}

const n = (value: number) => value.toLocaleString('en-US');

/** A user message that is a prompt (not a tool result sent as text): the turns `before_turn` counts. */
function isPrompt(message: ConversationMessage): boolean {
  const first = message.content[0];
  return message.role === 'user' && first?.type === 'text' && !first.text.startsWith('<tool_result');
}

/** The one-line stub that replaces what was cut. */
function stub(what: string, tokens: number, hint: string): string {
  return `[snipped ${what}, ${n(tokens)} tokens; the full text is in the session log: ${hint}]`;
}

function findResult(messages: readonly ConversationMessage[], id: string) {
  for (const [index, message] of messages.entries()) {
    const part = message.content.findIndex((p) => p.type === 'tool-result' && p.toolCallId === id);
    if (part >= 0) return { index, part };
  }
  return undefined;
}

const isStub = (text: string) => text.startsWith('[snipped ');

/** A message cut to its stub; a prompt keeps its `#` lines, an assistant message its calls (inputs emptied). */
function stubbedMessage(
  message: ConversationMessage,
  id: string,
  tokens: number,
  hint: string,
): ConversationMessage {
  const start = messageText(message, 60).slice(0, 60).replace(/\s+/g, ' ');
  const line = stub(`${id} (${message.role}: "${start}…")`, tokens, hint);
  if (message.role === 'assistant') {
    const calls = message.content
      .filter((part) => part.type === 'tool-call')
      .map((part) => ({ ...part, input: {} }));
    return { role: 'assistant', content: [{ type: 'text', text: line }, ...calls] };
  }
  const marked = markedLines(messageText(message));
  return userMessage(marked.length > 0 ? `${marked.join('\n')}\n${line}` : line);
}

/** The text of a tool result's output, for telling whether it is already a stub. */
function outputText(part: Part): string {
  if (part.type !== 'tool-result') return '';
  const value = (part.output as { value?: unknown }).value;
  return typeof value === 'string' ? value : '';
}

/**
 * Cuts named old messages (`msg-N`) and tool results (by call id) out of the conversation, in
 * place, each leaving a one-line stub; all named ids or none. Messages from the latest prompt on
 * stay (a tool result of the current turn may go).
 */
function snipIds(messages: ConversationMessage[], ids: readonly string[], setting: SnipSetting): SnipOutcome {
  const latest = latestUserMessage(messages, setting.latest);
  const protectedFrom = latest ? messages.indexOf(latest) : messages.length;
  const plan: Array<() => Removed> = [];
  for (const id of new Set(ids)) {
    const numbered = /^msg-(\d+)$/.exec(id);
    if (numbered) {
      const index = Number(numbered[1]) - 1;
      const message = messages[index];
      if (!message)
        return { ok: false, error: `There is no ${id}: the conversation has ${messages.length} messages.` };
      if (message.role === 'tool')
        return {
          ok: false,
          error: `${id} holds tool results: snip each by its call id (ctx_inspect lists them).`,
        };
      if (index >= protectedFrom)
        return {
          ok: false,
          error: `${id} is the latest prompt or comes after it: only older messages can be snipped.`,
        };
      if (isStub(messageText(message).replace(/^(#.*\n)*/, '')))
        return { ok: false, error: `${id} is already snipped.` };
      const tokens = messageTokens(message, setting.count);
      plan.push(() => {
        messages[index] = stubbedMessage(message, id, tokens, setting.logHint);
        return { id, what: `${message.role} message`, tokens };
      });
      continue;
    }
    const found = findResult(messages, id);
    if (!found)
      return { ok: false, error: `No message or tool result has the id "${id}" (ctx_inspect lists them).` };
    const message = messages[found.index];
    const part = message.content[found.part];
    if (part.type !== 'tool-result') continue;
    if (isStub(outputText(part))) return { ok: false, error: `The result of ${id} is already snipped.` };
    const tokens = partTokens(part, setting.count);
    plan.push(() => {
      const content = [...messages[found.index].content] as Part[];
      const line = stub(`the result of ${part.toolName} (call ${id})`, tokens, setting.logHint);
      content[found.part] = { ...part, output: { type: 'text', value: line } };
      messages[found.index] = { ...messages[found.index], content } as ConversationMessage;
      return { id, what: `result of ${part.toolName}`, tokens };
    });
  }
  const removed = plan.map((apply) => apply());
  return { ok: true, removed, freed: removed.reduce((sum, r) => sum + r.tokens, 0) };
}

/** Cuts every message before user turn `turn` into one stub (lasting instructions stay, word for word). */
function snipBefore(messages: ConversationMessage[], turn: number, setting: SnipSetting): SnipOutcome {
  const prompts = messages.flatMap((message, index) => (isPrompt(message) ? [index] : []));
  const latest = latestUserMessage(messages, setting.latest);
  const latestTurn = latest ? prompts.indexOf(messages.indexOf(latest)) + 1 : prompts.length;
  if (turn < 2 || turn > Math.max(latestTurn, 1))
    return {
      ok: false,
      error: `before_turn must be between 2 and ${latestTurn} (the latest prompt's turn); nothing before turn 1.`,
    };
  const end = prompts[turn - 1];
  const cut = messages.slice(0, end);
  const tokens = cut.reduce((sum, message) => sum + messageTokens(message, setting.count), 0);
  const lasting = [
    ...new Set(cut.flatMap((message) => (isPrompt(message) ? markedLines(messageText(message)) : []))),
  ];
  const what = `${cut.length} messages before turn ${turn}`;
  const replacement = [
    ...(lasting.length > 0 ? [userMessage(lastingMessageText(lasting))] : []),
    userMessage(stub(what, tokens, setting.logHint)),
  ];
  messages.splice(0, end, ...replacement);
  return { ok: true, removed: [{ id: `msg-1…msg-${end}`, what, tokens }], freed: tokens };
}

/** snip's engine: cuts what the request names out of `messages`, in place. */
export function snipConversation(
  messages: ConversationMessage[],
  request: SnipRequest,
  setting: SnipSetting,
): SnipOutcome {
  if (request.beforeTurn !== undefined) return snipBefore(messages, request.beforeTurn, setting);
  if (request.ids && request.ids.length > 0) return snipIds(messages, request.ids, setting);
  return { ok: false, error: 'Name what to cut: ids (from ctx_inspect) or before_turn.' };
}
