import type { ConversationMessage } from './model_stream.js';

/**
 * Token counts of conversation messages with the o200k encoding (gpt-tokenizer): what each part
 * puts on the wire — text, a call's name and JSON input, a result's text. Other models'
 * tokenizers differ by some percent; the context report scales to the provider's own count.
 */
export type TokenCounter = (text: string) => number;

/** An attached image costs about this much for the providers lathe speaks (a 1,000-px picture). */
export const IMAGE_TOKENS = 1_500;

let counter: Promise<TokenCounter> | undefined;

/** The tokenizer, loaded on first use (about 150 ms), then shared. */
export function tokenCounter(): Promise<TokenCounter> {
  counter ??= import('gpt-tokenizer/encoding/o200k_base').then((m) => (text: string) => m.countTokens(text));
  return counter;
}

type Part = ConversationMessage['content'][number];

/** The text a tool result carries (its images are counted apart). */
function resultText(output: unknown): { text: string; images: number } {
  const o = output as { type?: string; value?: unknown };
  if (o.type === 'content' && Array.isArray(o.value)) {
    const items = o.value as Array<{ type: string; text?: string }>;
    return {
      text: items.map((item) => (item.type === 'text' ? (item.text ?? '') : '')).join('\n'),
      images: items.filter((item) => item.type !== 'text').length,
    };
  }
  return { text: typeof o.value === 'string' ? o.value : JSON.stringify(o.value ?? ''), images: 0 };
}

/** The text of one part as it travels, and how many images it holds. */
export function partText(part: Part): { text: string; images: number } {
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return { text: part.text, images: 0 };
    case 'tool-call':
      return { text: `${part.toolName}${JSON.stringify(part.input ?? {})}`, images: 0 };
    case 'tool-result':
      return resultText(part.output);
    case 'file':
      return { text: '', images: 1 };
    default:
      return { text: '', images: 0 };
  }
}

const counted = new WeakMap<object, number>();

/** Tokens of one part; remembered per part object, so a long conversation is counted once. */
export function partTokens(part: Part, count: TokenCounter): number {
  const known = counted.get(part);
  if (known !== undefined) return known;
  const { text, images } = partText(part);
  const tokens = (text ? count(text) : 0) + images * IMAGE_TOKENS;
  counted.set(part, tokens);
  return tokens;
}

export function messageTokens(message: ConversationMessage, count: TokenCounter): number {
  let total = 0;
  for (const part of message.content) total += partTokens(part, count);
  return total;
}

/**
 * An upper bound of a message's tokens without the tokenizer: a byte-level encoding never makes
 * more tokens than UTF-8 bytes. Lets the compaction check skip counting when far from its threshold.
 */
export function messageTokensAtMost(message: ConversationMessage): number {
  let total = 0;
  for (const part of message.content) {
    const { text, images } = partText(part);
    total += Buffer.byteLength(text) + images * IMAGE_TOKENS;
  }
  return total;
}
