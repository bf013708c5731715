import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAnthropic } from '@ai-sdk/anthropic';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/sdk/errors.js';
import type { SdkMessage, SdkUserMessage } from '../../src/sdk/messages.js';
import { query } from '../../src/sdk/query.js';
import { eventually, processesCarrying, uniqueToken } from '../support/processes.js';
import { testNeeds } from '../support/required_programs.js';
import { closeSdkServers, readAll, results, sdkSetup } from './support.js';

afterEach(closeSdkServers);

/** A conversation the test feeds: each `say` is the next user message; `end` closes it. */
function feeder() {
  const waiting: Array<(message: SdkUserMessage | undefined) => void> = [];
  const queued: Array<SdkUserMessage | undefined> = [];
  const take = () =>
    new Promise<SdkUserMessage | undefined>((resolve) => {
      const next = queued.shift();
      if (next !== undefined || queued.length > 0) resolve(next);
      else waiting.push(resolve);
    });
  const give = (message: SdkUserMessage | undefined) => {
    const resolve = waiting.shift();
    if (resolve) resolve(message);
    else queued.push(message);
  };
  async function* messages(): AsyncGenerator<SdkUserMessage> {
    for (;;) {
      const message = await take();
      if (!message) return;
      yield message;
    }
  }
  return {
    messages: messages(),
    say: (text: string) => give({ type: 'user', text }),
    end: () => give(undefined),
  };
}

describe('query() against the fake model server', () => {
  it('yields the init record, the events and the result, as stream-json prints them', async () => {
    const { options } = await sdkSetup([{ text: 'Hello there.' }]);
    const messages = await readAll(query({ prompt: 'say hello', options }));
    expect(messages[0]).toMatchObject({
      type: 'system',
      subtype: 'init',
      model: 'anthropic/claude-sonnet-4-5',
    });
    expect(
      messages
        .filter((m) => m.type === 'text_delta')
        .map((m) => (m as { text: string }).text)
        .join(''),
    ).toBe('Hello there.');
    expect(messages.at(-1)).toMatchObject({ type: 'result', outcome: 'final_text', result: 'Hello there.' });
  });

  it('runs a conversation the program keeps feeding, one result per message', async () => {
    const { options, modelRequests } = await sdkSetup([{ text: 'Paris.' }, { text: 'About 2 million.' }]);
    const conversation = feeder();
    const run = query({ prompt: conversation.messages, options });
    conversation.say('What is the capital of France?');
    const seen: SdkMessage[] = [];
    for await (const message of run) {
      seen.push(message);
      if (message.type !== 'result') continue;
      if (results(seen).length === 1) conversation.say('How many people live there?');
      else conversation.end();
    }
    expect(results(seen).map((r) => r.result)).toEqual(['Paris.', 'About 2 million.']);
    const second = modelRequests()[1];
    expect(second.lastUserText).toBe('How many people live there?');
    // The second request carries the first exchange: one conversation, not two.
    expect(JSON.stringify(second.body.messages)).toContain('What is the capital of France?');
    expect(JSON.stringify(second.body.messages)).toContain('Paris.');
    expect((await run.result).result).toBe('About 2 million.');
  });

  it('resumes a session by its id: the next run carries the earlier conversation', async () => {
    const { options, modelRequests } = await sdkSetup([{ text: 'Noted.' }, { text: 'tangerine' }]);
    const first = await query({ prompt: 'Remember the word tangerine.', options }).result;
    const second = await query({ prompt: 'Which word?', options: { ...options, resume: first.session_id } })
      .result;
    expect(second.session_id).toBe(first.session_id);
    expect(JSON.stringify(modelRequests()[1].body.messages)).toContain('Remember the word tangerine.');
  });

  it('starts a new session under the id the program gives, and refuses one that is no session id', async () => {
    const { options } = await sdkSetup([{ text: 'Done.' }]);
    const result = await query({ prompt: 'go', options: { ...options, sessionId: '20260101-120000-a1b2c3' } })
      .result;
    expect(result.session_id).toBe('20260101-120000-a1b2c3');
    await expect(query({ prompt: 'go', options: { ...options, sessionId: '../x' } }).result).rejects.toThrow(
      /sessionId: "\.\.\/x" is not a session id/,
    );
  });

  testNeeds('bwrap')(
    'interrupt() mid-run ends it aborted, and the command it was running is gone',
    async () => {
      const token = uniqueToken('sdk-interrupt');
      const { options } = await sdkSetup([
        { toolCalls: [{ name: 'execute_command', input: { command: `export T=${token}; sleep 60` } }] },
      ]);
      const run = query({ prompt: 'wait a minute', options: { ...options, approve: ['executeAll'] } });
      const seen: SdkMessage[] = [];
      for await (const message of run) {
        seen.push(message);
        if (message.type === 'tool_start') {
          await eventually(() => processesCarrying(token).length > 0);
          await run.interrupt();
        }
      }
      expect(seen.at(-1)).toMatchObject({ type: 'result', outcome: 'aborted', is_error: true });
      await eventually(() => processesCarrying(token).length === 0);
    },
  );

  it('interrupt() while the model streams its answer ends the run there', async () => {
    const { options, server } = await sdkSetup([{ text: 'word '.repeat(400), chunkDelayMs: 5 }]);
    const run = query({ prompt: 'talk', options });
    let deltas = 0;
    for await (const message of run)
      if (message.type === 'text_delta' && ++deltas === 3) await run.interrupt();
    const result = await run.result;
    expect(result.outcome).toBe('aborted');
    expect(server.requests.filter((r) => r.kind === 'model')).toHaveLength(1);
  });

  it('takes a ready AI SDK language model object as its model', async () => {
    const { options, server, modelRequests } = await sdkSetup([{ text: 'From the object.' }]);
    const model = createAnthropic({ baseURL: server.baseUrl('anthropic'), apiKey: 'test-key' })(
      'claude-sonnet-4-5',
    );
    const messages = await readAll(
      query({ prompt: 'hi', options: { ...options, model, baseUrl: undefined } }),
    );
    expect(messages[0]).toMatchObject({ type: 'system', model: 'anthropic/claude-sonnet-4-5' });
    expect(results(messages)[0].result).toBe('From the object.');
    expect(modelRequests()[0].model).toBe('claude-sonnet-4-5');
  });

  it('setModel() goes on with another model from the next prompt, and setMode() switches to Plan', async () => {
    const { options, cwd, modelRequests } = await sdkSetup(
      [
        { text: 'First.' },
        { toolCalls: [{ name: 'write_to_file', input: { path: 'plan.txt', content: 'x' } }] },
        { text: 'I may not write in Plan mode.' },
      ],
      {},
    );
    const conversation = feeder();
    const run = query({ prompt: conversation.messages, options: { ...options, approve: ['edit'] } });
    conversation.say('one');
    const seen: SdkMessage[] = [];
    for await (const message of run) {
      seen.push(message);
      if (message.type !== 'result') continue;
      if (results(seen).length > 1) {
        conversation.end();
        continue;
      }
      await run.setModel('anthropic/claude-haiku-4-5');
      await run.setMode('plan');
      conversation.say('two');
    }
    expect(modelRequests().map((r) => r.model)).toEqual([
      'claude-sonnet-4-5',
      'claude-haiku-4-5',
      'claude-haiku-4-5',
    ]);
    expect(seen).toContainEqual({ type: 'mode_change', mode: 'plan' });
    expect(() => readFileSync(join(cwd, 'plan.txt'))).toThrow();
  });

  it('stops a run that spends past maxBudgetUsd before its calls run, and says so in the result', async () => {
    const { options } = await sdkSetup([
      {
        toolCalls: [{ name: 'read_file', input: { path: 'a.txt' } }],
        usage: { inputTokens: 100_000, outputTokens: 1_000 },
      },
      { text: 'not reached' },
    ]);
    const result = await query({ prompt: 'read', options: { ...options, maxBudgetUsd: 0.01 } }).result;
    expect(result).toMatchObject({
      outcome: 'max_cost',
      is_error: true,
      limit: { name: 'cost', used: 0.315, max: 0.01 },
    });
    expect(result.result).toBe('Stopped: the cost budget is spent ($0.3150 of $0.0100; --max-cost).');
    // The response that spent the budget runs none of its calls.
    expect(result.num_turns).toBe(1);
  });

  it('refuses options it cannot use with one line, before anything starts', async () => {
    const { options, modelRequests } = await sdkSetup([{ text: 'never' }]);
    const wrong = query({
      prompt: 'x',
      options: { ...options, hooks: { OnLunch: [{ hooks: [() => undefined] }] } as never },
    });
    await expect(readAll(wrong)).rejects.toThrow(UsageError);
    await expect(wrong.result).rejects.toThrow(/hooks: "OnLunch" is no hook event/);
    await expect(query({ prompt: 'x', options: { ...options, model: 42 as never } }).result).rejects.toThrow(
      /model: give a "provider\/model" name or an AI SDK language model object/,
    );
    expect(modelRequests()).toHaveLength(0);
  });
});
