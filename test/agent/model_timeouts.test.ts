import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { describeModelFailure } from '../../src/agent/model_errors.js';
import { streamModel } from '../../src/agent/model_stream.js';
import { createModel } from '../../src/provider/create_model.js';
import { parseModelSpec } from '../../src/provider/model_spec.js';
import { ModelTimeoutError } from '../../src/provider/timed_fetch.js';
import { latheAsync } from '../support/cli.js';
import { FakeModelServer, type ScriptedTurn } from '../support/fake_model_server.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

/** Small enough to keep the tests short; the clock itself is never asserted. */
const TIMEOUTS = { firstByteMs: 300, idleMs: 300 };

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** `textEvents`: how many stream events carry the first piece of text in each wire format. */
const PROVIDERS = [
  { model: 'anthropic/claude-sonnet-4-5', protocol: 'anthropic', path: '/v1/messages', textEvents: 4 },
  { model: 'openai-chat/gpt-5', protocol: 'openai-chat', path: '/v1/chat/completions', textEvents: 2 },
  { model: 'openai/gpt-5', protocol: 'openai-responses', path: '/v1/responses', textEvents: 5 },
  {
    model: 'google/gemini-2.5-flash',
    protocol: 'gemini',
    path: '/v1beta/models/gemini-2.5-flash',
    textEvents: 1,
  },
] as const;

const SENTENCE = 'the first words and then a good deal more';

/** The timeout an error carries, itself or as a cause (the AI SDK may wrap it). */
function timeoutOf(error: unknown): ModelTimeoutError | undefined {
  for (let e = error; e; e = (e as { cause?: unknown }).cause) if (e instanceof ModelTimeoutError) return e;
  return undefined;
}

/** Streams one request and returns the text that arrived and the error it ended with. */
async function stream(model: string, turn: ScriptedTurn, timeouts = TIMEOUTS) {
  server = await FakeModelServer.start({ turns: [turn] });
  const spec = parseModelSpec(model);
  const protocol = PROVIDERS.find((p) => p.model === model)!.protocol;
  const language = await createModel(spec, {
    apiKey: 'k',
    baseUrl: server.baseUrl(protocol),
    timeouts,
  });
  let text = '';
  try {
    for await (const event of streamModel(language, { system: 's', messages: [userText('hi')] })) {
      if (event.type === 'text') text += event.text;
    }
  } catch (error) {
    return { text, error };
  }
  return { text, error: undefined };
}

const userText = (text: string) => ({ role: 'user' as const, content: [{ type: 'text' as const, text }] });

describe('model request timeouts, against the fake model server', () => {
  for (const provider of PROVIDERS) {
    describe(provider.protocol, () => {
      it('ends a request whose endpoint accepts and sends nothing with a first-byte timeout', async () => {
        const { error } = await stream(provider.model, { hang: 'silent' });
        const timeout = timeoutOf(error);
        expect(timeout?.phase).toBe('first-byte');
        expect(timeout?.endpoint).toContain(`${server!.url}${provider.path}`);
        expect(timeout?.endpoint).not.toContain('?');
      });

      it('ends a stream that stops in the middle with an idle timeout, keeping what arrived', async () => {
        const { text, error } = await stream(provider.model, {
          text: SENTENCE,
          stallAfterEvents: provider.textEvents,
        });
        expect(timeoutOf(error)?.phase).toBe('idle');
        expect(text).not.toBe('');
        expect(SENTENCE.startsWith(text) && text !== SENTENCE).toBe(true);
      });
    });
  }

  it('ends a response that sends its headers and then nothing with an idle timeout', async () => {
    const { error } = await stream('anthropic/claude-sonnet-4-5', { hang: true });
    expect(timeoutOf(error)?.phase).toBe('idle');
    expect(describeModelFailure(error, 'm')).toMatchObject({ retryable: true });
    expect(describeModelFailure(error, 'm').message).toContain('(modelTimeouts.idle)');
  });

  it('leaves a slow but steady stream alone', async () => {
    // Each pause is well under the idle timeout; together (eight events) they are over it.
    const { text, error } = await stream(
      'anthropic/claude-sonnet-4-5',
      { text: 'one two three four five six', chunkDelayMs: 150 },
      { firstByteMs: 600, idleMs: 600 },
    );
    expect(error).toBeUndefined();
    expect(text).toBe('one two three four five six');
  });

  it('describes a timeout with the endpoint, the limit, the setting and what to do', () => {
    const first = describeModelFailure(
      new ModelTimeoutError('first-byte', 'http://127.0.0.1:9/v1/messages', 60_000),
      'm',
    );
    expect(first).toEqual({
      retryable: true,
      message:
        'the model endpoint did not answer: no response from http://127.0.0.1:9/v1/messages within 60 s ' +
        '(modelTimeouts.firstByte). Check that the endpoint is up and reachable, or raise ' +
        '"modelTimeouts.firstByte" (seconds) in settings for a slow model.',
    });
  });
});

/** `lathe -p` with `modelTimeouts` in the global settings (seconds), against the fake server. */
async function headless(turns: ScriptedTurn[], modelTimeouts = { firstByte: 0.3, idle: 0.3 }) {
  server = await FakeModelServer.start({ turns });
  const home = tempDir('lathe-home-');
  mkdirSync(join(home, 'settings'), { recursive: true });
  writeFileSync(join(home, 'settings', 'settings.json'), JSON.stringify({ modelTimeouts }));
  const result = await latheAsync(
    ['-p', 'go', '--model', 'anthropic/claude-sonnet-4-5', '--output-format', 'json'],
    {
      cwd: writeTree({ 'a.txt': 'x\n' }),
      env: {
        LATHE_HOME: home,
        ANTHROPIC_BASE_URL: server.url,
        ANTHROPIC_API_KEY: 'k',
        LATHE_RETRY_BASE_MS: '10',
        NODE_ENV: 'test',
      },
    },
  );
  return { ...result, requests: server.requests.filter((r) => r.kind === 'model') };
}

describe('lathe -p with a hung model endpoint', () => {
  it('retries a request that gets no byte, then reports the endpoint, the timeout and the fix', async () => {
    const silent: ScriptedTurn = { hang: 'silent' };
    const r = await headless([silent, silent, silent, silent, silent]);
    expect(r.code).toBe(1);
    // The first attempt and four retries, each announced on stderr.
    expect(r.requests).toHaveLength(5);
    expect(r.stderr.match(/^lathe: retrying in \d+s: the model endpoint did not answer/gm)).toHaveLength(4);
    const last = r.stderr.trim().split('\n').at(-1)!;
    expect(last).toBe(
      `lathe: the model endpoint did not answer: no response from ${server!.url}/v1/messages within 0.3 s ` +
        '(modelTimeouts.firstByte). Check that the endpoint is up and reachable, or raise ' +
        '"modelTimeouts.firstByte" (seconds) in settings for a slow model.',
    );
  });

  it('goes on after a retry when the endpoint answers the second time', async () => {
    const r = await headless([
      { hang: 'silent' },
      { toolCalls: [{ name: 'attempt_completion', input: { result: 'done' } }] },
    ]);
    expect(r.code).toBe(0);
    expect(r.requests).toHaveLength(2);
    expect(JSON.parse(r.stdout.trim().split('\n').at(-1)!).result).toBe('done');
  });

  it('reports a stream that stalls after some text, without repeating the request', async () => {
    // A first byte late on a busy machine must not be what this test sees: only the stall is short.
    const r = await headless(
      [{ text: 'I will start by reading the files one by one', stallAfterEvents: 4 }],
      {
        firstByte: 30,
        idle: 0.3,
      },
    );
    expect(r.code).toBe(1);
    expect(r.requests).toHaveLength(1);
    expect(r.stderr).toContain(
      `${server!.url}/v1/messages stopped sending for 0.3 s in the middle of its answer`,
    );
    expect(r.stderr).toContain('raise "modelTimeouts.idle" (seconds) in settings');
  });
});
