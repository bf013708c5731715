import type { LanguageModel, ModelMessage } from 'ai';

/** Compact when the conversation fills this share of the context window. */
const THRESHOLD = 0.8;
const EDIT_TOOLS = new Set([
  'write_to_file',
  'replace_in_file',
  'apply_patch',
  'edit_file',
  'replace_text',
  'notebook_edit',
]);

export function shouldCompact(contextTokens: number, contextWindow: number): boolean {
  return contextTokens > 0 && contextTokens >= contextWindow * THRESHOLD;
}

function textOf(content: ModelMessage['content']): string {
  if (typeof content === 'string') return content;
  return content
    .map((part) => {
      if (part.type === 'text') return part.text;
      if (part.type === 'tool-call')
        return `[called ${part.toolName} ${JSON.stringify(part.input).slice(0, 300)}]`;
      if (part.type === 'tool-result') {
        const output = part.output as { value?: unknown };
        return `[result of ${part.toolName}: ${String(typeof output.value === 'string' ? output.value : JSON.stringify(output.value)).slice(0, 500)}]`;
      }
      return '';
    })
    .join('\n');
}

/** The files the conversation changed, from its edit tool calls. */
function filesTouched(messages: ModelMessage[]): string[] {
  const files = new Set<string>();
  for (const m of messages) {
    if (m.role !== 'assistant' || typeof m.content === 'string') continue;
    for (const part of m.content) {
      if (part.type !== 'tool-call' || !EDIT_TOOLS.has(part.toolName)) continue;
      const input = part.input as { path?: string; input?: string };
      if (input.path) files.add(input.path);
      for (const match of input.input?.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm) ?? [])
        files.add(match[1]);
    }
  }
  return [...files];
}

/**
 * Replaces the conversation with a model-written summary that keeps the task, every user
 * instruction, the files touched and the open work; AGENTS.md stays in the system prompt.
 */
export async function compactMessages(
  model: LanguageModel,
  messages: ModelMessage[],
  signal?: AbortSignal,
): Promise<{ messages: ModelMessage[]; text: string }> {
  const { generateText } = await import('ai');
  const userMessages = messages.filter((m) => m.role === 'user').map((m) => textOf(m.content));
  const transcript = messages.map((m) => `${m.role}: ${textOf(m.content)}`).join('\n\n');
  const files = filesTouched(messages);
  const { text } = await generateText({
    model,
    abortSignal: signal,
    maxRetries: 2,
    system:
      'Summarise this coding session so the work can continue from the summary alone. Keep: the task, every ' +
      'instruction the user gave, decisions made, the files changed and how, what was verified, errors still ' +
      'open, and the remaining todo items. Be complete but brief.',
    prompt: transcript.slice(-400_000),
  });
  const summary = [
    `The task and the user's instructions, in order:\n${userMessages.map((u, i) => `${i + 1}. ${u}`).join('\n')}`,
    files.length ? `Files changed so far: ${files.join(', ')}` : '',
    `Summary of the work so far:\n${text}`,
  ]
    .filter(Boolean)
    .join('\n\n');
  return {
    messages: [
      {
        role: 'user',
        content: `[The conversation was compacted to fit the context window.]\n\n${summary}\n\nContinue the task.`,
      },
    ],
    text: summary,
  };
}
