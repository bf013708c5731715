import { getEventListeners } from 'node:events';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { call, type Reply, say, startParent } from '../support/subagent_harness.js';

let parent: Awaited<ReturnType<typeof startParent>> | undefined;
afterEach(async () => {
  await parent?.close();
  parent = undefined;
});

/** A parent that reads a new part of notes.txt each request, `rounds` times, then answers. */
const reading =
  (rounds: number): Reply =>
  (_sender, i) =>
    i < rounds
      ? call('read_file', { path: 'notes.txt', offset: (i % 50) + 1, limit: 1 })
      : say('read it all');

async function start(reply: Reply, limits: Parameters<typeof startParent>[0]['limits'] = {}) {
  parent = await startParent({ reply, limits, askUser: async () => ({ approved: true }) });
  writeFileSync(join(parent.dir, 'notes.txt'), 'a line\n'.repeat(60));
  return parent;
}

describe('the agent loop with no limit on requests', () => {
  it('makes more than 100 model requests when no limit is given, while the model works', async () => {
    const { agent, modelRequests } = await start(reading(150));
    const outcome = await agent.send('read the notes');
    expect(outcome).toMatchObject({ kind: 'final_text', text: 'read it all', turns: 151 });
    expect(modelRequests()).toHaveLength(151);
  }, 120_000);

  it('ends with max_turns at --max-turns, and says which limit', async () => {
    const { agent, modelRequests } = await start(reading(10), { maxTurns: 4 });
    const outcome = await agent.send('read the notes');
    expect(outcome).toMatchObject({
      kind: 'max_turns',
      turns: 4,
      limit: { name: 'turns', used: 4, max: 4 },
      text: 'Stopped after 4 model requests: the limit of --max-turns 4.',
    });
    expect(modelRequests()).toHaveLength(4);
  });

  it('ends a run whose model repeats one call after its refusals', async () => {
    const same = call('read_file', { path: 'notes.txt' });
    const { agent, modelRequests, events } = await start(() => same);
    const outcome = await agent.send('read the notes');
    expect(outcome.kind).toBe('stopped');
    expect(outcome.text).toBe(
      'Stopped: the model made the same read_file call 6 times in a row, and its refusals did not change it.',
    );
    expect(modelRequests()).toHaveLength(6);
    const results = events.filter((e) => e.type === 'tool_result');
    // Two ran; the third to the sixth were refused.
    expect(results.filter((e) => e.type === 'tool_result' && !e.result.isError)).toHaveLength(2);
  });

  it("leaves the run's signal with the abort listeners it had, after 30 requests", async () => {
    const { agent } = await start(reading(29));
    const controller = new AbortController();
    const before = getEventListeners(controller.signal, 'abort').length;
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const outcome = await agent.send('read the notes', controller.signal);
      expect(outcome.turns).toBe(30);
    } finally {
      process.off('warning', onWarning);
    }
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(before);
    expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning');
  }, 60_000);
});

describe('the agent loop under a spend budget', () => {
  // claude-sonnet-4-5: $3 a million input tokens, $15 a million output tokens.
  it('runs none of the calls of a response whose usage reaches the cost budget, and sends no more', async () => {
    const { agent, modelRequests, dir } = await start(
      (_s, i) => ({
        toolCalls: [{ name: 'write_to_file', input: { path: `w${i}.txt`, content: 'x\n' } }],
        usage:
          i === 0 ? { inputTokens: 1_000, outputTokens: 100 } : { inputTokens: 20_000, outputTokens: 1_000 },
      }),
      { budget: { maxCostUsd: 0.03 } },
    );
    const outcome = await agent.send('write');
    // $0.0045, then $0.075: the second response passes $0.03, and its write does not run.
    expect(outcome.kind).toBe('max_cost');
    expect(outcome.limit).toEqual({ name: 'cost', used: expect.closeTo(0.0795, 6), max: 0.03 });
    expect(outcome.text).toBe('Stopped: the cost budget is spent ($0.0795 of $0.0300; --max-cost).');
    expect(existsSync(join(dir, 'w0.txt'))).toBe(true);
    expect(existsSync(join(dir, 'w1.txt'))).toBe(false);
    expect(modelRequests()).toHaveLength(2);
    // The conversation stays whole: the call that did not run has its result.
    const last = agent.messages.at(-1);
    expect(JSON.stringify(last)).toMatch(/Not run: Stopped: the cost budget is spent/);
  });

  it('never sends a request whose input alone would pass the cost budget', async () => {
    const { agent, modelRequests } = await start(
      () => ({
        toolCalls: [{ name: 'read_file', input: { path: 'notes.txt', limit: 1 } }],
        usage: { inputTokens: 6_000, outputTokens: 100 },
      }),
      { budget: { maxCostUsd: 0.03 } },
    );
    const outcome = await agent.send('read');
    // The first request cost $0.0195; the next carries 6,100 tokens and more ($0.018 or more).
    expect(modelRequests()).toHaveLength(1);
    expect(outcome).toMatchObject({ kind: 'max_cost', turns: 1, limit: { name: 'cost', max: 0.03 } });
    expect(outcome.costUsd).toBeCloseTo(0.0195, 6);
    expect(outcome.text).toMatch(
      /^Stopped before model request 2: it would pass the cost budget \(\$0\.0195 of \$0\.0300; --max-cost, and about \$0\.018\d to send\)\.$/,
    );
  });

  it('stops at the token budget the same way', async () => {
    const { agent, modelRequests } = await start(
      (_s, i) => ({
        toolCalls: [{ name: 'read_file', input: { path: 'notes.txt', offset: i + 1, limit: 1 } }],
        usage: { inputTokens: 300, outputTokens: 50 },
      }),
      { budget: { maxTokens: 1_000 } },
    );
    const outcome = await agent.send('read');
    // 350 after one request; the second carries 350 and more: 700; a third would pass 1,000.
    expect(outcome.kind).toBe('max_tokens');
    expect(outcome.limit).toEqual({ name: 'tokens', used: 700, max: 1_000 });
    expect(modelRequests()).toHaveLength(2);
  });
});
