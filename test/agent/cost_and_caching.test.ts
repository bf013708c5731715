import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/agent.js';
import { capabilitiesFor } from '../../src/provider/capabilities.js';
import { createModel } from '../../src/provider/create_model.js';
import { createRuntime } from '../../src/runtime/create_runtime.js';
import { latheAsync } from '../support/cli.js';
import type { WireJson } from '../support/fake_model/types.js';
import { FakeModelServer, type RecordedRequest, type ScriptedTurn } from '../support/fake_model_server.js';
import { fakeModelEnv } from '../support/headless_run.js';
import { tempDir } from '../support/runtime_fixtures.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const env = fakeModelEnv;

async function run(
  model: string,
  turns: ScriptedTurn[],
  promptCache?: { minTokens: number },
  settings?: Record<string, unknown>,
) {
  server = await FakeModelServer.start({ turns, promptCache });
  const dir = tempDir();
  writeFileSync(join(dir, 'a.ts'), 'export const a = 1;\n');
  if (settings) {
    mkdirSync(join(dir, '.agents'));
    writeFileSync(join(dir, '.agents', 'settings.json'), JSON.stringify(settings));
  }
  const r = await latheAsync(['-p', 'look at a.ts', '--model', model, '--output-format', 'json'], {
    cwd: dir,
    env: env(server, tempDir('lathe-home-')),
  });
  expect(r.code, r.stderr).toBe(0);
  const result = JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}');
  return { result, requests: server.requests.filter((q) => q.kind === 'model') };
}

/** Dollars for the requests' reported usage at the given per-million rates. */
function costAt(
  requests: RecordedRequest[],
  rates: { input: number; cacheWrite: number; cacheRead: number; output: number },
): number {
  let dollars = 0;
  for (const { usage } of requests) {
    if (!usage) throw new Error('a request without reported usage');
    const fullPrice = usage.inputTokens - usage.cachedInputTokens - usage.cacheWriteTokens;
    dollars +=
      fullPrice * rates.input +
      usage.cacheWriteTokens * rates.cacheWrite +
      usage.cachedInputTokens * rates.cacheRead +
      usage.outputTokens * rates.output;
  }
  return dollars / 1_000_000;
}

const SONNET = { input: 3, cacheWrite: 3.75, cacheRead: 0.3, output: 15 };
const THREE_TURNS: ScriptedTurn[] = [
  { toolCalls: [{ name: 'glob', input: { pattern: '*.ts' } }] },
  { toolCalls: [{ name: 'read_file', input: { path: 'a.ts' } }] },
  { text: 'a.ts exports a = 1.' },
];

describe('Anthropic prompt caching', () => {
  it('marks the tools, the system prompt and the conversation tail, and reads the prefix back', async () => {
    const { requests } = await run('anthropic/claude-sonnet-4-5', THREE_TURNS, { minTokens: 1024 });
    const second = requests[1].body;
    const ephemeral = { type: 'ephemeral' };
    expect(second.tools.at(-1).cache_control).toEqual(ephemeral);
    expect(second.tools.slice(0, -1).some((t: WireJson) => t.cache_control)).toBe(false);
    expect(second.system.at(-1).cache_control).toEqual(ephemeral);
    // messages: the prompt (the first request's tail), the model's glob call, its result (the tail).
    expect(second.messages.map((m: WireJson) => m.content.at(-1).cache_control ?? null)).toEqual([
      ephemeral,
      null,
      ephemeral,
    ]);
    const breakpoints = JSON.stringify(second).split('"cache_control"').length - 1;
    expect(breakpoints).toBe(4);

    // The first request wrote its prefix; each later one reads all but its newest messages.
    expect(requests[0].usage).toMatchObject({ cachedInputTokens: 0 });
    expect(requests[0].usage?.cacheWriteTokens).toBeGreaterThan(1024);
    for (const later of requests.slice(1)) {
      const usage = later.usage!;
      expect(usage.cachedInputTokens).toBeGreaterThan(0.8 * usage.inputTokens);
    }
  });

  it('prices input, output, cache writes and cache reads each at its own rate in total_cost_usd', async () => {
    const { result, requests } = await run('anthropic/claude-sonnet-4-5', THREE_TURNS, { minTokens: 1024 });
    const reads = requests.reduce((n, q) => n + (q.usage?.cachedInputTokens ?? 0), 0);
    const writes = requests.reduce((n, q) => n + (q.usage?.cacheWriteTokens ?? 0), 0);
    expect(reads).toBeGreaterThan(0);
    expect(result.usage).toMatchObject({
      cache_read_input_tokens: reads,
      cache_creation_input_tokens: writes,
    });
    expect(result.total_cost_usd).toBeCloseTo(costAt(requests, SONNET), 10);
    // Had every input token been billed at the input price, the run would have cost more.
    const uncached = costAt(requests, { ...SONNET, cacheWrite: 3, cacheRead: 3 });
    expect(result.total_cost_usd).toBeLessThan(uncached);
  });

  it('counts the summary request of a compaction in usage and cost', async () => {
    const turns: ScriptedTurn[] = [
      {
        toolCalls: [{ name: 'read_file', input: { path: 'a.ts' } }],
        usage: { inputTokens: 900, outputTokens: 10 },
      },
      { text: 'Summary: read a.ts.' },
      { text: 'Done.' },
    ];
    const { result, requests } = await run('anthropic/claude-sonnet-4-5', turns, undefined, {
      contextWindow: 1_000,
    });
    expect(requests).toHaveLength(3);
    expect(requests[1].toolNames).toEqual([]);
    expect(result.usage).toMatchObject({ input_tokens: 1_100, output_tokens: 50 });
    expect(result.total_cost_usd).toBeCloseTo(costAt(requests, SONNET), 12);
  });

  it('prices Opus as Opus', async () => {
    const { result, requests } = await run('anthropic/claude-opus-4-1', [{ text: 'hi' }]);
    expect(result.total_cost_usd).toBeCloseTo(
      costAt(requests, { input: 15, cacheWrite: 18.75, cacheRead: 1.5, output: 75 }),
      10,
    );
  });
});

describe('OpenAI and Gemini caching', () => {
  const cachedTurn: ScriptedTurn = {
    text: 'done',
    usage: { inputTokens: 10_000, cachedInputTokens: 8_000, outputTokens: 500 },
  };

  it.each([
    ['openai/gpt-5-mini', { input: 0.25, cacheWrite: 0.25, cacheRead: 0.025, output: 2 }],
    ['openai-chat/gpt-5-nano', { input: 0.05, cacheWrite: 0.05, cacheRead: 0.005, output: 0.4 }],
  ])(
    '%s sends the session as prompt_cache_key and bills cached tokens at the cached price',
    async (model, rates) => {
      const { result, requests } = await run(model, [cachedTurn]);
      expect(requests[0].body.prompt_cache_key).toBe(result.session_id);
      expect(JSON.stringify(requests[0].body)).not.toContain('cache_control');
      expect(result.usage).toMatchObject({ input_tokens: 10_000, cache_read_input_tokens: 8_000 });
      expect(result.total_cost_usd).toBeCloseTo(costAt(requests, rates), 12);
    },
  );

  it('reads Gemini’s cachedContentTokenCount and prices 2.5 Flash as Flash', async () => {
    const { result, requests } = await run('google/gemini-2.5-flash', [cachedTurn]);
    expect(result.usage).toMatchObject({ input_tokens: 10_000, cache_read_input_tokens: 8_000 });
    const flash = { input: 0.3, cacheWrite: 0.3, cacheRead: 0.03, output: 2.5 };
    expect(result.total_cost_usd).toBeCloseTo(costAt(requests, flash), 12);
  });

  it('reports no cost for a model whose price is unknown', async () => {
    const { result } = await run('anthropic/claude-unknown-9', [{ text: 'hi' }]);
    expect(result.total_cost_usd).toBeNull();
  });
});

describe('a conversation of several prompts', () => {
  it('keeps the system prompt, so the next prompt reads the whole conversation from the cache', async () => {
    server = await FakeModelServer.start({
      turns: [
        { toolCalls: [{ name: 'read_file', input: { path: 'a.ts' } }] },
        { text: 'One.' },
        { text: 'Two.' },
      ],
      promptCache: { minTokens: 1024 },
    });
    const dir = tempDir();
    execFileSync('git', ['init', '-q'], { cwd: dir });
    writeFileSync(join(dir, 'a.ts'), 'export const a = 1;\n');
    const spec = { provider: 'anthropic' as const, modelId: 'claude-sonnet-4-5' };
    const runtime = createRuntime({ cwd: dir, documentsRoot: tempDir('lathe-home-'), env: {} });
    const agent = new Agent({
      runtime,
      model: await createModel(spec, { apiKey: 'k', baseUrl: server.baseUrl('anthropic') }),
      modelName: 'anthropic/claude-sonnet-4-5',
      capabilities: capabilitiesFor(spec),
      user: { ask: async () => ({ answer: '', present: false }), confirm: async () => ({ approved: false }) },
    });
    try {
      await agent.send('first');
      // The working tree changes between prompts: git status is not what it was.
      writeFileSync(join(dir, 'b.ts'), 'export const b = 2;\n');
      await agent.send('second');
    } finally {
      await runtime.dispose();
    }
    const [, end, next] = server.requests.filter((q) => q.kind === 'model');
    expect(next.systemText).toBe(end.systemText);
    // All of the first prompt's conversation, up to its last request's tail, is read back.
    expect(next.usage!.cachedInputTokens).toBe(end.usage!.inputTokens);
  });
});
