import type { ContextItem, ContextPart, ContextReport } from '../tool/context/conversation.js';
import type { ToolDefinitionForModel } from '../tool/definition.js';
import { countTokens as countDefinition } from '../tool/token_count.js';
import { messageTokens, partTokens, type TokenCounter, tokenCounter } from './context_tokens.js';
import { lastingInstructions } from './lasting_instructions.js';
import { messageText } from './messages.js';
import type { ConversationMessage } from './model_stream.js';

/** How many of the largest items a report names. */
const LARGEST = 10;
/** A provider's count this far from lathe's is not the same request (a proxy, a fixed figure): not used. */
const TRUSTED_SCALE = { low: 0.5, high: 2 };

/** What a model request carries, as the agent builds it. */
export interface ContextInputs {
  /** The whole system prompt as sent. */
  system: string;
  /** The sections of the system prompt that are rules and AGENTS.md files, each with a name. */
  rules: Array<{ name: string; text: string }>;
  /** The section listing the skills, when the prompt has one. */
  skills?: string;
  /** The tool definitions sent (none for models that get tools in the prompt). */
  tools?: readonly ToolDefinitionForModel[];
  messages: readonly ConversationMessage[];
  window: number;
  compactAt: number;
  /** The last request: how many of `messages` it sent, and the provider's count of its input. */
  lastRequest?: { messages: number; providerTokens: number };
}

/** A short label of a message for the largest items. */
function describe(message: ConversationMessage): string {
  const text = messageText(message, 60).replace(/\s+/g, ' ').trim();
  return `${message.role}: ${text.length > 60 ? `${text.slice(0, 59)}…` : text}`;
}

/** Each message's items: the message itself, or each tool result of a tool message. */
function messageItems(
  messages: readonly ConversationMessage[],
  count: TokenCounter,
): Array<ContextItem & { result: boolean }> {
  const items: Array<ContextItem & { result: boolean }> = [];
  messages.forEach((message, index) => {
    const results = message.content.filter((part) => part.type === 'tool-result');
    for (const part of results) {
      items.push({
        id: part.toolCallId,
        what: `result of ${part.toolName}`,
        tokens: partTokens(part, count),
        result: true,
      });
    }
    const others = message.content.filter((part) => part.type !== 'tool-result');
    if (others.length === 0) return;
    const tokens = others.reduce((sum, part) => sum + partTokens(part, count), 0);
    items.push({ id: `msg-${index + 1}`, what: describe(message), tokens, result: false });
  });
  return items;
}

/** Rounds scaled parts so they still add up to the scaled total. */
function scaleParts(parts: ContextPart[], scale: number): ContextPart[] {
  if (scale === 1) return parts;
  const exact = parts.map((part) => part.tokens * scale);
  const rounded = exact.map(Math.floor);
  let left = Math.round(exact.reduce((a, b) => a + b, 0)) - rounded.reduce((a, b) => a + b, 0);
  const order = exact.map((value, i) => ({ i, frac: value - rounded[i] })).sort((a, b) => b.frac - a.frac);
  for (const { i } of order) {
    if (left <= 0) break;
    rounded[i]++;
    left--;
  }
  return parts.map((part, i) => ({ ...part, tokens: rounded[i] }));
}

/**
 * What fills the context, by part, counted with the o200k tokenizer; scaled to the provider's
 * count of the last request when that count is known and trusted, so the parts add up to what
 * the provider bills.
 */
export async function contextReport(inputs: ContextInputs): Promise<ContextReport> {
  const count = await tokenCounter();
  const systemTokens = count(inputs.system);
  const ruleItems = inputs.rules.map((rule) => ({
    id: rule.name,
    what: rule.name,
    tokens: count(rule.text),
  }));
  const rulesTokens = ruleItems.reduce((sum, item) => sum + item.tokens, 0);
  const skillsTokens = inputs.skills ? count(inputs.skills) : 0;
  const toolItems = await Promise.all(
    (inputs.tools ?? []).map(async (tool) => ({
      id: `tool ${tool.name}`,
      what: `definition of ${tool.name}`,
      tokens: await countDefinition(JSON.stringify(tool)),
    })),
  );
  const toolsTokens = toolItems.reduce((sum, item) => sum + item.tokens, 0);
  const items = messageItems(inputs.messages, count);
  const sum = (result: boolean) =>
    items.filter((item) => item.result === result).reduce((total, item) => total + item.tokens, 0);
  const parts: ContextPart[] = [
    { name: 'system prompt', tokens: Math.max(0, systemTokens - rulesTokens - skillsTokens) },
    { name: 'tools', tokens: toolsTokens },
    { name: 'rules', tokens: rulesTokens },
    { name: 'skills list', tokens: skillsTokens },
    { name: 'messages', tokens: sum(false) },
    { name: 'tool results', tokens: sum(true) },
  ];
  const scale = trustedScale(inputs, systemTokens + toolsTokens, count);
  const trusted = scale !== undefined;
  const scaled = scaleParts(parts, scale ?? 1);
  const largest = [...items, ...toolItems, ...ruleItems]
    .map(({ id, what, tokens }) => ({ id, what, tokens: Math.round(tokens * (scale ?? 1)) }))
    .sort((a, b) => b.tokens - a.tokens)
    .slice(0, LARGEST);
  return {
    parts: scaled,
    total: scaled.reduce((total, part) => total + part.tokens, 0),
    window: inputs.window,
    compactAt: inputs.compactAt,
    largest,
    counting: {
      scale: scale ?? 1,
      trusted,
      ...(inputs.lastRequest ? { providerTokens: inputs.lastRequest.providerTokens } : {}),
    },
    lasting: lastingInstructions(inputs.messages),
  };
}

/** The provider's count of the last request over lathe's count of the same request, when trusted. */
function trustedScale(inputs: ContextInputs, fixedTokens: number, count: TokenCounter): number | undefined {
  const last = inputs.lastRequest;
  if (!last || last.providerTokens <= 0) return undefined;
  let counted = fixedTokens;
  for (const message of inputs.messages.slice(0, last.messages)) counted += messageTokens(message, count);
  if (counted <= 0) return undefined;
  const scale = last.providerTokens / counted;
  return scale >= TRUSTED_SCALE.low && scale <= TRUSTED_SCALE.high ? scale : undefined;
}
