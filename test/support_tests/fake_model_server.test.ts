import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import {
  APICallError,
  generateText,
  jsonSchema,
  type LanguageModel,
  stepCountIs,
  streamText,
  type ToolSet,
  tool,
} from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { WireJson } from '../support/fake_model/types.js';
import { FakeModelServer, type Protocol } from '../support/fake_model_server.js';

/**
 * Each wire format is proven by driving the fake server with the real AI SDK client for it:
 * if the SDK sees the text, the tool calls, the finish reason and the usage, the format is right.
 */

interface ClientCase {
  name: string;
  protocol: Protocol;
  modelId: string;
  idPrefix: string;
  create: (server: FakeModelServer, modelId: string) => LanguageModel;
}

const CLIENTS: ClientCase[] = [
  {
    name: 'anthropic',
    modelId: 'claude-sonnet-4-5',
    protocol: 'anthropic',
    idPrefix: 'toolu_',
    create: (s, id) => createAnthropic({ baseURL: s.baseUrl('anthropic'), apiKey: 'test-key' })(id),
  },
  {
    name: 'openai responses',
    modelId: 'gpt-4.1',
    protocol: 'openai-responses',
    idPrefix: 'call_',
    create: (s, id) =>
      createOpenAI({ baseURL: s.baseUrl('openai-responses'), apiKey: 'test-key' }).responses(id),
  },
  {
    name: 'openai chat',
    modelId: 'gpt-4.1',
    protocol: 'openai-chat',
    idPrefix: 'call_',
    create: (s, id) => createOpenAI({ baseURL: s.baseUrl('openai-chat'), apiKey: 'test-key' }).chat(id),
  },
  {
    name: 'openai-compatible',
    modelId: 'local-model',
    protocol: 'openai-chat',
    idPrefix: 'call_',
    // Without includeUsage the compatible client asks for no usage, and gets none (see the test below).
    create: (s, id) =>
      createOpenAICompatible({
        name: 'local',
        baseURL: s.baseUrl('openai-chat'),
        apiKey: 'test-key',
        includeUsage: true,
      })(id),
  },
  {
    name: 'gemini',
    modelId: 'gemini-2.5-flash',
    protocol: 'gemini',
    idPrefix: 'call_',
    create: (s, id) => createGoogleGenerativeAI({ baseURL: s.baseUrl('gemini'), apiKey: 'test-key' })(id),
  },
];

const TOOLS = {
  read_file: tool({ description: 'Read a file', inputSchema: z.object({ path: z.string() }) }),
  grep: tool({
    description: 'Search files',
    inputSchema: jsonSchema<{ pattern: string; path?: string }>({
      type: 'object',
      properties: { pattern: { type: 'string' }, path: { type: 'string' } },
      required: ['pattern'],
    }),
  }),
} satisfies ToolSet;

/** Stream with no retries unless asked; errors are read from the full stream instead of being logged. */
function run(options: Parameters<typeof streamText>[0]) {
  return collect(streamText({ maxRetries: 0, onError: () => {}, ...options }));
}

/** Everything the SDK reported for one streamed call, read from its full stream. */
async function collect(result: ReturnType<typeof streamText<WireJson>>) {
  const seen = {
    text: '',
    textDeltas: 0,
    toolInputDeltas: 0,
    toolCalls: [] as WireJson[],
    toolErrors: [] as WireJson[],
    errors: [] as unknown[],
    aborted: false,
    finishReason: undefined as string | undefined,
    usage: undefined as WireJson,
    thrown: undefined as unknown,
  };
  try {
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') {
        seen.text += part.text;
        if (part.text) seen.textDeltas++;
      } else if (part.type === 'tool-input-delta') seen.toolInputDeltas++;
      else if (part.type === 'tool-call') seen.toolCalls.push(part);
      else if (part.type === 'tool-error') seen.toolErrors.push(part);
      else if (part.type === 'error') seen.errors.push(part.error);
      else if (part.type === 'abort') seen.aborted = true;
      else if (part.type === 'finish') {
        seen.finishReason = part.finishReason;
        seen.usage = part.totalUsage;
      }
    }
  } catch (error) {
    // A connection lost after the stream began is thrown out of the stream, not sent as an error part.
    seen.thrown = error;
  }
  return seen;
}

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(condition()).toBe(true);
}

let server: FakeModelServer;
beforeEach(async () => {
  server = await FakeModelServer.start();
});
afterEach(async () => {
  await server.close();
});

describe.each(CLIENTS)(
  '$name client against the fake server',
  ({ name, protocol, modelId, idPrefix, create }) => {
    const model = (s: FakeModelServer) => create(s, modelId);

    it('streams text in pieces with finish reason and usage', async () => {
      server.enqueue({ text: 'Hello from the fake model.', usage: { inputTokens: 321, outputTokens: 54 } });
      const seen = await run({ model: model(server), prompt: 'hi' });
      expect(seen.errors).toEqual([]);
      expect(seen.text).toBe('Hello from the fake model.');
      expect(seen.textDeltas).toBe(3);
      expect(seen.finishReason).toBe('stop');
      expect(seen.usage).toMatchObject({ inputTokens: 321, outputTokens: 54 });
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]).toMatchObject({ protocol, kind: 'model', stream: true });
    });

    it('reports two tool calls in one message with parsed inputs', async () => {
      server.enqueue({
        toolCalls: [
          { name: 'read_file', input: { path: 'src/a.ts' } },
          { name: 'grep', input: { pattern: 'TODO', path: 'src' } },
        ],
      });
      const seen = await run({ model: model(server), prompt: 'look', tools: TOOLS });
      expect(seen.errors).toEqual([]);
      expect(seen.toolCalls.map((c) => [c.toolCallId, c.toolName, c.input, c.invalid])).toEqual([
        [`${idPrefix}1`, 'read_file', { path: 'src/a.ts' }, undefined],
        [`${idPrefix}2`, 'grep', { pattern: 'TODO', path: 'src' }, undefined],
      ]);
      expect(seen.finishReason).toBe('tool-calls');
      expect(seen.usage).toMatchObject({ inputTokens: 100, outputTokens: 20 });
      expect(seen.text).toBe('');
      // Gemini sends each call whole; the others stream the arguments in pieces the client must join.
      if (protocol !== 'gemini') expect(seen.toolInputDeltas).toBeGreaterThanOrEqual(6);
    });

    it('records the tool results of the next request, normalised', async () => {
      server.enqueue(
        {
          text: 'Reading.',
          toolCalls: [
            { name: 'read_file', input: { path: 'a.ts' } },
            { name: 'grep', input: { pattern: 'x' } },
          ],
        },
        { text: 'Done.' },
      );
      const tools = {
        read_file: tool({
          inputSchema: z.object({ path: z.string() }),
          execute: async ({ path }) => `contents of ${path}`,
        }),
        grep: tool({
          inputSchema: z.object({ pattern: z.string() }),
          execute: async (): Promise<string> => {
            throw new Error('grep exploded');
          },
        }),
      };
      const seen = await run({ model: model(server), prompt: 'go', tools, stopWhen: stepCountIs(2) });
      expect(seen.errors).toEqual([]);
      expect(seen.text).toBe('Reading.Done.');
      expect(server.requests).toHaveLength(2);
      expect(server.requests[0].toolResults).toEqual([]);
      const [ok, failed] = server.requests[1].toolResults;
      expect(ok).toEqual({ id: `${idPrefix}1`, name: 'read_file', content: 'contents of a.ts' });
      expect(failed).toMatchObject({ id: `${idPrefix}2`, name: 'grep', content: 'grep exploded' });
      // Only Anthropic's format carries an error flag; the others send the error as plain text.
      expect(failed.isError).toBe(protocol === 'anthropic' ? true : undefined);
      expect(server.requests[1].lastUserText).toBe('go');
    });

    it('gives the SDK an APICallError with the status and message of an error turn', async () => {
      server.enqueue({ error: { status: 400, message: 'prompt is too long' } });
      const seen = await run({ model: model(server), prompt: 'hi' });
      expect(seen.errors).toHaveLength(1);
      const error = seen.errors[0];
      expect(APICallError.isInstance(error)).toBe(true);
      // The SDK only finds the message when the body has the provider's own error shape.
      expect(error).toMatchObject({ statusCode: 400, message: 'prompt is too long', isRetryable: false });
    });

    it('passes the retry-after of a 429 to the SDK as a retryable error', async () => {
      server.enqueue({ error: { status: 429, retryAfterSeconds: 3 } });
      const seen = await run({ model: model(server), prompt: 'hi' });
      expect(seen.errors[0]).toMatchObject({ statusCode: 429, isRetryable: true });
      expect((seen.errors[0] as APICallError).responseHeaders?.['retry-after']).toBe('3');
      expect(server.requests).toHaveLength(1);
    });

    it('reports malformed tool arguments as an invalid tool call plus a tool-error, not a stream error', async () => {
      server.enqueue({ toolCalls: [{ name: 'read_file', rawArguments: '{"path": "a.ts' }] });
      const seen = await run({ model: model(server), prompt: 'hi', tools: TOOLS });
      expect(seen.errors).toEqual([]);
      expect(seen.toolCalls).toHaveLength(1);
      expect(seen.toolCalls[0]).toMatchObject({
        toolName: 'read_file',
        invalid: true,
        input: '{"path": "a.ts',
      });
      expect(seen.toolErrors).toHaveLength(1);
      expect(String(seen.toolErrors[0].error)).toContain('JSON parsing failed');
    });

    it('reports a length stop as finish reason length', async () => {
      server.enqueue({ text: 'Cut sho', finish: 'length' });
      const seen = await run({ model: model(server), prompt: 'hi' });
      expect(seen.text).toBe('Cut sho');
      expect(seen.finishReason).toBe('length');
    });

    it('answers non-streaming calls too', async () => {
      server.enqueue({ text: 'Plain.', toolCalls: [{ name: 'read_file', input: { path: 'b.ts' } }] });
      const result = await generateText({ model: model(server), prompt: 'hi', tools: TOOLS, maxRetries: 0 });
      expect(result.text).toBe('Plain.');
      expect(result.toolCalls.map((c) => [c.toolName, c.input])).toEqual([['read_file', { path: 'b.ts' }]]);
      expect(result.finishReason).toBe('tool-calls');
      expect(result.usage).toMatchObject({ inputTokens: 100, outputTokens: 20 });
      expect(server.requests[0]).toMatchObject({ protocol, stream: false });
    });

    it('lets a hanging turn be aborted, then closes cleanly', async () => {
      server.enqueue({ hang: true });
      const abort = new AbortController();
      const seen = run({ model: model(server), prompt: 'hi', abortSignal: abort.signal });
      await waitFor(() => server.requests.length === 1);
      abort.abort();
      expect((await seen).aborted).toBe(true);
      await server.close();
    });

    it('ends a hanging response when the server closes; the SDK reports an APICallError, as an error part or thrown', async () => {
      server.enqueue({ hang: true });
      const seen = run({ model: model(server), prompt: 'hi' });
      await waitFor(() => server.requests.length === 1);
      await server.close();
      const { errors, thrown, text } = await seen;
      expect(text).toBe('');
      // Anthropic and both OpenAI clients read ahead before their stream starts, so the loss is an
      // error part; the compatible and Gemini clients have started, so it is thrown out of fullStream.
      const reported = thrown === undefined ? errors : [...errors, thrown];
      expect(reported).toHaveLength(1);
      expect(APICallError.isInstance(reported[0])).toBe(true);
      expect(thrown === undefined).toBe(!['openai-compatible', 'gemini'].includes(name));
    });

    it('records protocol, model, tool names, system text and last user text', async () => {
      server.enqueue({ text: 'ok' });
      await run({
        model: model(server),
        system: 'You are terse.',
        messages: [
          { role: 'user', content: 'first question' },
          { role: 'assistant', content: 'first answer' },
          { role: 'user', content: [{ type: 'text', text: 'second question' }] },
        ],
        tools: TOOLS,
      });
      const [req] = server.requests;
      expect(req).toMatchObject({
        protocol,
        method: 'POST',
        toolNames: ['read_file', 'grep'],
        systemText: 'You are terse.',
        lastUserText: 'second question',
        toolResults: [],
      });
      expect(req.model).toBe(modelId);
      expect(JSON.stringify(req.headers)).toContain('test-key');
    });
  },
);

describe('scripting and routes', () => {
  const modelOf = (name: string) => {
    const c = CLIENTS.find((c) => c.name === name)!;
    return c.create(server, c.modelId);
  };
  const anthropicModel = () => modelOf('anthropic');

  it('retries a 429 after its retry-after, and records both requests', async () => {
    server.enqueue({ error: { status: 429, retryAfterSeconds: 0, message: 'slow down' } }, { text: 'ok' });
    const seen = await run({ model: anthropicModel(), prompt: 'hi', maxRetries: 1 });
    expect(seen.text).toBe('ok');
    expect(server.requests).toHaveLength(2);
  });

  it('sends retry-after and the provider error type on an error turn', async () => {
    server.enqueue({ error: { status: 529, retryAfterSeconds: 7, type: 'overloaded_error' } });
    const [error] = (await run({ model: anthropicModel(), prompt: 'hi' })).errors;
    expect(error).toMatchObject({
      statusCode: 529,
      isRetryable: true,
      data: { error: { type: 'overloaded_error' } },
    });
    expect((error as APICallError).responseHeaders?.['retry-after']).toBe('7');
  });

  it('answers with a 500 when the script runs out, by default', async () => {
    const res = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', body: '{"model":"m"}' });
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ error: { message: 'no scripted turn left' } });
  });

  it('consumes turns in order whatever the protocol, and uses the fallback after', async () => {
    server = await restart({ turns: [{ text: 'one' }, { text: 'two' }], fallback: { text: 'again' } });
    const texts = [];
    for (const name of ['anthropic', 'gemini', 'openai chat', 'openai responses']) {
      texts.push((await generateText({ model: modelOf(name), prompt: 'hi', maxRetries: 0 })).text);
    }
    expect(texts).toEqual(['one', 'two', 'again', 'again']);
  });

  it('lets a respond turn decide from the recorded request', async () => {
    server.enqueue({ respond: (req) => ({ text: `you said: ${req.lastUserText}` }) });
    const result = await generateText({ model: anthropicModel(), prompt: 'ping', maxRetries: 0 });
    expect(result.text).toBe('you said: ping');
  });

  it('sleeps chunkDelayMs between events', async () => {
    server.enqueue({ text: 'slow text here', chunkDelayMs: 10 });
    const started = Date.now();
    const seen = await run({ model: anthropicModel(), prompt: 'hi' });
    expect(seen.text).toBe('slow text here');
    // message_start, ping, block start, 3 deltas, block stop, message_delta, message_stop: 9 events.
    expect(Date.now() - started).toBeGreaterThanOrEqual(9 * 10 - 5);
  });

  it('cuts a stream stalled mid-way when the server closes; the SDK throws out of fullStream', async () => {
    server.enqueue({ text: 'never finished', chunkDelayMs: 60_000 });
    const seen = run({ model: anthropicModel(), prompt: 'hi' });
    await waitFor(() => server.requests.length === 1);
    // A 60 s delay: only the close can end the stream within the test's time.
    await server.close();
    const { errors, thrown, text } = await seen;
    expect(text).toBe('');
    // Once the stream has started, a lost connection is thrown, not reported as an error part.
    expect(errors).toEqual([]);
    expect(APICallError.isInstance(thrown)).toBe(true);
  });

  it('gives the openai-compatible client no usage unless it sets includeUsage, as the real API does', async () => {
    server.enqueue({ text: 'ok' });
    const compat = createOpenAICompatible({
      name: 'local',
      baseURL: server.baseUrl('openai-chat'),
      apiKey: 'k',
    });
    const seen = await run({ model: compat('m'), prompt: 'hi' });
    expect(seen.text).toBe('ok');
    expect(seen.usage.inputTokens).toBeUndefined();
    expect(server.requests[0].body.stream_options).toBeUndefined();
  });

  it('streams Gemini as a JSON array without alt=sse', async () => {
    server.enqueue({ text: 'abcdef' });
    const res = await fetch(`${server.baseUrl('gemini')}/models/gemini-2.5-flash:streamGenerateContent`, {
      method: 'POST',
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    });
    const chunks = (await res.json()) as WireJson[];
    expect(chunks.map((c) => c.candidates[0].content.parts[0].text).join('')).toBe('abcdef');
    expect(chunks.at(-1).candidates[0].finishReason).toBe('STOP');
  });

  it('serves model lists and token counts without consuming turns', async () => {
    server.enqueue({ text: 'kept' });
    const list = (await (await fetch(`${server.url}/v1/models`)).json()) as WireJson;
    expect(list.data.length).toBeGreaterThan(0);
    expect(list.models.length).toBeGreaterThan(0);
    const count = await fetch(`${server.url}/v1/messages/count_tokens`, {
      method: 'POST',
      body: '{"messages":[]}',
    });
    expect(await count.json()).toMatchObject({ input_tokens: expect.any(Number) });
    const result = await generateText({ model: anthropicModel(), prompt: 'hi', maxRetries: 0 });
    expect(result.text).toBe('kept');
    expect(server.requests.map((r) => r.kind)).toEqual(['models', 'count_tokens', 'model']);
  });

  it('answers unknown routes with a 404 recorded as unknown', async () => {
    const res = await fetch(`${server.url}/v1/embeddings`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(404);
    expect(server.requests[0]).toMatchObject({
      protocol: 'unknown',
      kind: 'unknown',
      path: '/v1/embeddings',
    });
  });
});

async function restart(options: Parameters<typeof FakeModelServer.start>[0]): Promise<FakeModelServer> {
  await server.close();
  return FakeModelServer.start(options);
}
