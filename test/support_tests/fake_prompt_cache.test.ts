import { describe, expect, it } from 'vitest';
import { streamModel } from '../../src/agent/model_stream.js';
import { createModel } from '../../src/provider/create_model.js';
import type { ModelSpec } from '../../src/provider/model_spec.js';
import { AnthropicPromptCache, estimateTokens } from '../support/fake_model/prompt_cache.js';
import type { WireJson } from '../support/fake_model/types.js';
import { FakeModelServer } from '../support/fake_model_server.js';

const EPHEMERAL = { type: 'ephemeral' };
/** A block of about `tokens` tokens once serialised. */
const filler = (tokens: number, tag: string) => `${tag} ${'x'.repeat(tokens * 4)}`;
const text = (t: string, breakpoint = false) => ({
  type: 'text',
  text: t,
  ...(breakpoint ? { cache_control: EPHEMERAL } : {}),
});

function body(
  messages: Array<{ role: string; content: WireJson[] }>,
  system = 'You are lathe.',
  marked = true,
) {
  return {
    tools: [
      { name: 'glob', input_schema: { description: filler(600, 'glob') } },
      {
        name: 'read',
        input_schema: { description: filler(600, 'read') },
        ...(marked ? { cache_control: EPHEMERAL } : {}),
      },
    ],
    system: [text(system, marked)],
    messages,
  };
}

describe('the fake server’s Anthropic prompt cache', () => {
  it('caches nothing without breakpoints', () => {
    const cache = new AnthropicPromptCache(1024);
    const request = body([{ role: 'user', content: [text('hi')] }], undefined, false);
    cache.account(request);
    const second = cache.account(request);
    expect(second).toMatchObject({ cachedInputTokens: 0, cacheWriteTokens: 0 });
    expect(second.inputTokens).toBeGreaterThan(1200);
  });

  it('writes up to the last breakpoint, then reads that prefix and writes only what is new', () => {
    const cache = new AnthropicPromptCache(1024);
    const first = [{ role: 'user', content: [text(filler(100, 'task'), true)] }];
    const a = cache.account(body(first));
    expect(a.cachedInputTokens).toBe(0);
    expect(a.cacheWriteTokens).toBe(a.inputTokens);

    const second = [
      { role: 'user', content: [text(filler(100, 'task'), true)] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'glob', input: {} }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: filler(300, 'r'), cache_control: EPHEMERAL },
        ],
      },
    ];
    const b = cache.account(body(second));
    expect(b.cachedInputTokens).toBe(a.inputTokens);
    expect(b.cacheWriteTokens).toBe(b.inputTokens - a.inputTokens);
    expect(b.cacheWriteTokens).toBeGreaterThan(300);
  });

  it('counts input after the last breakpoint as plain input', () => {
    const cache = new AnthropicPromptCache(1024);
    const r = cache.account(body([{ role: 'user', content: [text(filler(200, 'unmarked'))] }]));
    expect(r.inputTokens - r.cacheWriteTokens).toBeGreaterThanOrEqual(200);
    expect(r.inputTokens - r.cacheWriteTokens).toBeLessThan(260);
  });

  it('does not cache a prefix shorter than minTokens', () => {
    const cache = new AnthropicPromptCache(100_000);
    const request = body([{ role: 'user', content: [text('hi', true)] }]);
    cache.account(request);
    expect(cache.account(request)).toMatchObject({ cachedInputTokens: 0, cacheWriteTokens: 0 });
  });

  it('a changed system prompt keeps the tools cached and nothing after them', () => {
    const cache = new AnthropicPromptCache(1024);
    const messages = [{ role: 'user', content: [text('hi', true)] }];
    cache.account(body(messages, 'Act mode'));
    const r = cache.account(body(messages, 'Plan mode'));
    const tools = body([]).tools.reduce(
      (n, { cache_control, ...t }) => n + estimateTokens(JSON.stringify(t)),
      0,
    );
    expect(r.cachedInputTokens).toBe(tools);
    expect(r.cacheWriteTokens).toBe(r.inputTokens - tools);
  });

  it('finds an earlier entry up to 20 blocks before a breakpoint, not further', () => {
    const blocks = (n: number) => Array.from({ length: n }, (_, i) => text(`block ${i}`));
    const withTail = (n: number) => [
      { role: 'user', content: [text(filler(100, 'task'), true)] },
      { role: 'assistant', content: [...blocks(n - 1), text('tail', true)] },
    ];
    const near = new AnthropicPromptCache(1024);
    const a = near.account(body([{ role: 'user', content: [text(filler(100, 'task'), true)] }]));
    // Only the tail is marked now: the earlier entry is 20 blocks back, so it is found.
    const onlyTail = (n: number) => {
      const b = body(withTail(n));
      delete (b.messages[0].content[0] as WireJson).cache_control;
      delete (b.tools[1] as WireJson).cache_control;
      delete (b.system[0] as WireJson).cache_control;
      return b;
    };
    expect(near.account(onlyTail(20)).cachedInputTokens).toBe(a.inputTokens);
    const far = new AnthropicPromptCache(1024);
    far.account(body([{ role: 'user', content: [text(filler(100, 'task'), true)] }]));
    expect(far.account(onlyTail(21)).cachedInputTokens).toBe(0);
  });
});

describe('cached tokens on each wire format', () => {
  const cases: Array<[string, ModelSpec, 'anthropic' | 'openai-chat' | 'gemini']> = [
    ['Anthropic Messages', { provider: 'anthropic', modelId: 'claude-sonnet-4-5' }, 'anthropic'],
    ['OpenAI Responses', { provider: 'openai', modelId: 'gpt-5' }, 'openai-chat'],
    ['OpenAI Chat Completions', { provider: 'openai-chat', modelId: 'gpt-5' }, 'openai-chat'],
    ['Gemini', { provider: 'google', modelId: 'gemini-2.5-pro' }, 'gemini'],
  ];

  it.each(cases)(
    '%s reports scripted cache reads (and writes, where the provider has them)',
    async (_name, spec, protocol) => {
      const server = await FakeModelServer.start({
        turns: [
          {
            text: 'ok',
            usage: {
              inputTokens: 5_000,
              cachedInputTokens: 3_000,
              cacheWriteTokens: 1_000,
              outputTokens: 40,
            },
          },
        ],
      });
      try {
        const model = await createModel(spec, { apiKey: 'k', baseUrl: server.baseUrl(protocol) });
        let finish: WireJson;
        for await (const event of streamModel(model, {
          system: 's',
          messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
        }))
          if (event.type === 'finish') finish = event;
        const writes = spec.provider === 'anthropic' ? 1_000 : 0;
        expect(finish).toEqual({
          type: 'finish',
          inputTokens: 5_000,
          outputTokens: 40,
          cachedInputTokens: 3_000,
          cacheWriteTokens: writes,
        });
      } finally {
        await server.close();
      }
    },
  );
});
