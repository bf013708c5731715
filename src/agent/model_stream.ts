import type {
  LanguageModelV3,
  LanguageModelV3FunctionTool,
  LanguageModelV3Message,
  LanguageModelV3StreamPart,
  SharedV3ProviderMetadata,
  SharedV3ProviderOptions,
} from '@ai-sdk/provider';
import type { ToolDefinitionForModel } from '../tool/definition.js';
import { withPromptCache } from './prompt_cache.js';

/** A conversation message as the providers take it (the system prompt travels apart). */
export type ConversationMessage = Exclude<LanguageModelV3Message, { role: 'system' }>;

export type ModelStreamEvent =
  | { type: 'text'; text: string }
  /** A piece of the model's reasoning as it streams (the whole block follows as `reasoning`). */
  | { type: 'reasoning-delta'; text: string }
  | { type: 'tool-call'; id: string; name: string; input: unknown }
  /** A finished block of the model's reasoning, with what its provider needs to accept it back. */
  | { type: 'reasoning'; text: string; providerMetadata?: SharedV3ProviderMetadata }
  | {
      type: 'finish';
      /** Every input token, cached or not. */
      inputTokens: number;
      outputTokens: number;
      /** Input read from the provider's prompt cache. */
      cachedInputTokens: number;
      /** Input written to it (Anthropic bills these above the input price). */
      cacheWriteTokens: number;
    };

export interface ModelRequest {
  system: string;
  messages: ConversationMessage[];
  tools?: ToolDefinitionForModel[];
  signal?: AbortSignal;
  providerOptions?: SharedV3ProviderOptions;
  /** Ask the provider to cache the prompt's prefix; the key names the session where a provider takes one. */
  promptCacheKey?: string;
}

/** Tool input arrives as JSON text; text that does not parse is passed on for the executor to explain. */
function parseToolInput(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * One streamed model request, straight through the provider's language model: lathe keeps its
 * own conversation, retries and tool execution, so the per-request work is only the provider's
 * wire format. Errors (HTTP, stream) are thrown.
 */
export async function* streamModel(
  model: LanguageModelV3,
  request: ModelRequest,
): AsyncGenerator<ModelStreamEvent> {
  const tools: LanguageModelV3FunctionTool[] | undefined = request.tools?.map((t) => ({
    type: 'function',
    name: t.name,
    description: t.description,
    inputSchema: t.inputSchema as LanguageModelV3FunctionTool['inputSchema'],
  }));
  const plain = {
    prompt: [{ role: 'system' as const, content: request.system }, ...request.messages],
    tools: tools && tools.length > 0 ? tools : undefined,
    providerOptions: request.providerOptions,
  };
  const cacheable =
    request.promptCacheKey === undefined
      ? plain
      : withPromptCache(model.provider, plain, request.promptCacheKey);
  const { stream } = await model.doStream({ ...cacheable, abortSignal: request.signal });
  const reader = stream.getReader();
  // Reasoning arrives in pieces; its signature (Anthropic) may come with any of them.
  const reasoning = new Map<string, { text: string; providerMetadata?: SharedV3ProviderMetadata }>();
  const addReasoning = (id: string, text: string, metadata?: SharedV3ProviderMetadata) => {
    const block = reasoning.get(id) ?? { text: '' };
    block.text += text;
    if (metadata) block.providerMetadata = mergeMetadata(block.providerMetadata, metadata);
    reasoning.set(id, block);
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      const part = value as LanguageModelV3StreamPart;
      if (part.type === 'text-delta') yield { type: 'text', text: part.delta };
      else if (part.type === 'reasoning-start') addReasoning(part.id, '', part.providerMetadata);
      else if (part.type === 'reasoning-delta') {
        addReasoning(part.id, part.delta, part.providerMetadata);
        if (part.delta) yield { type: 'reasoning-delta', text: part.delta };
      } else if (part.type === 'reasoning-end') {
        addReasoning(part.id, '', part.providerMetadata);
        const block = reasoning.get(part.id)!;
        reasoning.delete(part.id);
        yield { type: 'reasoning', ...block };
      } else if (part.type === 'tool-call') {
        yield {
          type: 'tool-call',
          id: part.toolCallId,
          name: part.toolName,
          input: parseToolInput(part.input),
        };
      } else if (part.type === 'finish') {
        yield {
          type: 'finish',
          inputTokens: part.usage.inputTokens.total ?? 0,
          outputTokens: part.usage.outputTokens.total ?? 0,
          cachedInputTokens: part.usage.inputTokens.cacheRead ?? 0,
          cacheWriteTokens: part.usage.inputTokens.cacheWrite ?? 0,
        };
      } else if (part.type === 'error') {
        throw part.error;
      }
    }
  } finally {
    reader.releaseLock();
  }
}

function mergeMetadata(
  a: SharedV3ProviderMetadata | undefined,
  b: SharedV3ProviderMetadata,
): SharedV3ProviderMetadata {
  const merged: SharedV3ProviderMetadata = { ...a };
  for (const [provider, values] of Object.entries(b)) merged[provider] = { ...merged[provider], ...values };
  return merged;
}

/** The whole text of a request made without tools (summaries), and what it used. */
export async function completeText(
  model: LanguageModelV3,
  request: Omit<ModelRequest, 'tools'>,
): Promise<{ text: string; usage?: Extract<ModelStreamEvent, { type: 'finish' }> }> {
  let text = '';
  let usage: Extract<ModelStreamEvent, { type: 'finish' }> | undefined;
  for await (const event of streamModel(model, request)) {
    if (event.type === 'text') text += event.text;
    else if (event.type === 'finish') usage = event;
  }
  return { text, usage };
}
