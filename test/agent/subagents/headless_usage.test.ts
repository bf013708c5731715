import { afterEach, describe, expect, it } from 'vitest';
import { priceFor, requestCost } from '../../../src/provider/prices.js';
import { latheAsync } from '../../support/cli.js';
import type { ScriptedTurn } from '../../support/fake_model/types.js';
import type { FakeModelServer } from '../../support/fake_model_server.js';
import { fakeModelEnv } from '../../support/headless_run.js';
import { tempDir } from '../../support/runtime_fixtures.js';
import { fakeServerBySender } from '../../support/subagent_harness.js';

const servers: FakeModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const PARENT = { inputTokens: 300, outputTokens: 30 };
const CHILD = { inputTokens: 2000, outputTokens: 100 };

/** The parent starts a child, then answers; the child lists files, then answers: 2 requests each. */
function reply(sender: string, index: number): ScriptedTurn {
  if (sender === 'parent')
    return index === 0
      ? {
          toolCalls: [{ name: 'use_subagent', input: { description: 'lister', prompt: 'list the files' } }],
          usage: PARENT,
        }
      : { text: 'The child listed them.', usage: PARENT };
  return index === 0
    ? { toolCalls: [{ name: 'glob', input: { pattern: '*' } }], usage: CHILD }
    : { text: 'No files.', usage: CHILD };
}

describe('lathe -p with a child agent', () => {
  it("reports the run's own usage and its child's apart, and the cost of both", async () => {
    const server = await fakeServerBySender(reply);
    servers.push(server);
    const run = await latheAsync(
      ['-p', 'delegate', '--model', 'anthropic/claude-sonnet-4-5', '--output-format', 'json'],
      { cwd: tempDir(), env: fakeModelEnv(server, tempDir('lathe-home-')) },
    );
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.usage).toEqual({
      input_tokens: 600,
      output_tokens: 60,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
      children: {
        input_tokens: 4000,
        output_tokens: 200,
        cache_read_input_tokens: 0,
        cache_creation_input_tokens: 0,
        cost_usd: expect.any(Number),
      },
    });
    const price = priceFor({ provider: 'anthropic', modelId: 'claude-sonnet-4-5' })!;
    const cost = (usage: { inputTokens: number; outputTokens: number }) =>
      2 * requestCost({ ...usage, cachedInputTokens: 0, cacheWriteTokens: 0 }, price);
    expect(result.usage.children.cost_usd).toBeCloseTo(cost(CHILD), 12);
    expect(result.total_cost_usd).toBeCloseTo(cost(PARENT) + cost(CHILD), 12);
  });
});
