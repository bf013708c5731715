import type { LanguageModelV3 } from '@ai-sdk/provider';
import { DEFAULT_CONTEXT_SETTINGS } from '../config/context_settings.js';

import { findTool } from '../tool/pool.js';
import { parseInput } from '../tool/run_call.js';
import type { ChangeContext, Tool } from '../tool/types.js';
import {
  lastingInstructions,
  lastingMessageText,
  latestUserMessage,
  markedLines,
} from './lasting_instructions.js';
import { messageText, userMessage } from './messages.js';
import { type ConversationMessage, completeText, type ModelStreamEvent } from './model_stream.js';

/** Compact when the conversation fills this share of the context window (settings `context.compactAt`). */
export const DEFAULT_COMPACT_AT = DEFAULT_CONTEXT_SETTINGS.compactAt;
/** The transcript handed to the summariser is cut to its last this-many characters. */
const MAX_TRANSCRIPT_CHARS = 400_000;

/** The files the conversation changed, as the tools of its calls declare them. */
function filesTouched(
  messages: ConversationMessage[],
  pool: readonly Tool[],
  folders: ChangeContext,
): string[] {
  const files = new Set<string>();
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    for (const part of m.content) {
      if (part.type !== 'tool-call') continue;
      const tool = findTool(pool, part.toolName);
      if (!tool?.touchedPaths) continue;
      const parsed = parseInput(tool, part.input);
      if (parsed.ok) for (const path of tool.touchedPaths(parsed.input, folders)) files.add(path);
    }
  }
  return [...files];
}

/**
 * Replaces the conversation with a model-written summary that keeps the task, every user
 * instruction, the files touched and the open work; AGENTS.md stays in the system prompt. The
 * user's lasting instructions (`#` lines) and latest prompt are kept word for word, not summarised.
 */
export async function compactMessages(
  model: LanguageModelV3,
  messages: ConversationMessage[],
  signal: AbortSignal | undefined,
  /** The tools whose calls say which files were changed. */
  pool: readonly Tool[],
  folders: ChangeContext,
  /** The user's latest prompt, when the caller knows it (else the last user message that is no tool result). */
  latest?: ConversationMessage,
): Promise<{
  messages: ConversationMessage[];
  text: string;
  /** What the summary request used: it is paid for like any other. */
  usage?: Extract<ModelStreamEvent, { type: 'finish' }>;
}> {
  const userTexts = messages
    .filter((m) => m.role === 'user')
    .map((m) => messageText(m))
    .filter((text) => !text.startsWith('<tool_result'));
  const latestPrompt = latestUserMessage(messages, latest);
  const inLatest = new Set(latestPrompt ? markedLines(messageText(latestPrompt)) : []);
  const lasting = lastingInstructions(messages).filter((line) => !inLatest.has(line));
  const transcript = messages.map((m) => `${m.role}: ${messageText(m)}`).join('\n\n');
  const files = filesTouched(messages, pool, folders);
  const { text, usage } = await completeText(model, {
    signal,
    system:
      'Summarise this coding session so the work can continue from the summary alone. Keep: the task, every ' +
      'instruction the user gave, decisions made, the files changed and how, what was verified, errors still ' +
      'open, and the remaining todo items. Be complete but brief.',
    messages: [userMessage(transcript.slice(-MAX_TRANSCRIPT_CHARS))],
  });
  const summary = [
    `The task and the user's instructions, in order:\n${userTexts.map((u, i) => `${i + 1}. ${u}`).join('\n')}`,
    files.length ? `Files changed so far: ${files.join(', ')}` : '',
    `Summary of the work so far:\n${text}`,
  ]
    .filter(Boolean)
    .join('\n\n');
  const ending = latestPrompt
    ? "The user's latest message follows word for word; the summary above includes the work already done on it. Continue the task."
    : 'Continue the task.';
  return {
    messages: [
      ...(lasting.length > 0 ? [userMessage(lastingMessageText(lasting))] : []),
      userMessage(`[The conversation was compacted to fit the context window.]\n\n${summary}\n\n${ending}`),
      ...(latestPrompt ? [latestPrompt] : []),
    ],
    text: summary,
    usage,
  };
}
