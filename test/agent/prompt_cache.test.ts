import type { LanguageModelV3FunctionTool, LanguageModelV3Message } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import {
  type CacheableRequest,
  conversationBreakpoints,
  MAX_ANTHROPIC_BREAKPOINTS,
  withPromptCache,
} from '../../src/agent/prompt_cache.js';
import type { WireJson } from '../support/fake_model/types.js';

const user = (text: string): LanguageModelV3Message => ({ role: 'user', content: [{ type: 'text', text }] });
const reply = (id: string): LanguageModelV3Message => ({
  role: 'assistant',
  content: [{ type: 'tool-call', toolCallId: id, toolName: 'read_file', input: {} }],
});
const result = (id: string): LanguageModelV3Message => ({
  role: 'tool',
  content: [
    { type: 'tool-result', toolCallId: id, toolName: 'read_file', output: { type: 'text', value: 'x' } },
  ],
});
const tool = (name: string): LanguageModelV3FunctionTool => ({
  type: 'function',
  name,
  inputSchema: { type: 'object' },
});

function request(conversation: LanguageModelV3Message[]): CacheableRequest {
  return {
    prompt: [{ role: 'system', content: 'You are lathe.' }, ...conversation],
    tools: [tool('glob'), tool('read_file'), tool('execute_command')],
    providerOptions: { openai: { store: false } },
  };
}

const marked = (item: { providerOptions?: Record<string, WireJson> }) =>
  item.providerOptions?.anthropic?.cacheControl?.type === 'ephemeral';

describe('Anthropic cache breakpoints', () => {
  const conversation = [user('fix it'), reply('a'), result('a'), reply('b'), result('b')];

  it('marks the last tool, the system prompt, the tail and the previous request’s tail', () => {
    const cached = withPromptCache('anthropic.messages', request(conversation), 'session-1');
    expect(cached.tools?.map(marked)).toEqual([false, false, true]);
    // prompt: system, user, reply a, result a, reply b, result b
    expect(cached.prompt.map(marked)).toEqual([true, false, false, true, false, true]);
  });

  it('never uses more than four breakpoints', () => {
    for (let length = 1; length <= conversation.length; length++) {
      const cached = withPromptCache('anthropic.messages', request(conversation.slice(0, length)), 'k');
      const count = [...(cached.tools ?? []), ...cached.prompt].filter(marked).length;
      expect(count).toBeLessThanOrEqual(MAX_ANTHROPIC_BREAKPOINTS);
    }
  });

  it('marks copies: the conversation the agent keeps is unchanged', () => {
    const original = request(conversation);
    const before = JSON.stringify(original);
    withPromptCache('anthropic.messages', original, 'k');
    expect(JSON.stringify(original)).toBe(before);
  });

  it('keeps what a message already asks of the provider', () => {
    const withOptions: LanguageModelV3Message = {
      ...user('hi'),
      providerOptions: { anthropic: { citations: true }, other: { a: 1 } },
    };
    const cached = withPromptCache('anthropic.messages', request([withOptions]), 'k');
    expect(cached.prompt[1].providerOptions).toEqual({
      anthropic: { citations: true, cacheControl: { type: 'ephemeral' } },
      other: { a: 1 },
    });
  });

  it('puts the conversation breakpoints on the tail and on the last message before the latest reply', () => {
    expect(conversationBreakpoints([user('a')])).toEqual([0]);
    expect(conversationBreakpoints([user('a'), reply('x'), result('x')])).toEqual([0, 2]);
    // A reminder after the tool results: the previous tail is still the message before the reply.
    expect(conversationBreakpoints([user('a'), reply('x'), result('x'), user('go on')])).toEqual([0, 3]);
    expect(conversationBreakpoints([])).toEqual([]);
  });
});

describe('other providers', () => {
  it('gives OpenAI the session as prompt_cache_key, keeping its other options', () => {
    for (const provider of ['openai.responses', 'openai.chat']) {
      const cached = withPromptCache(provider, request([user('hi')]), 'session-7');
      expect(cached.providerOptions).toEqual({ openai: { store: false, promptCacheKey: 'session-7' } });
      expect([...(cached.tools ?? []), ...cached.prompt].some(marked)).toBe(false);
    }
  });

  it('leaves Gemini (implicit caching) and compatible endpoints as they are', () => {
    for (const provider of ['google.generative-ai', 'openai-compatible.chat', 'ollama.chat']) {
      const original = request([user('hi')]);
      expect(withPromptCache(provider, original, 'k')).toBe(original);
    }
  });
});
