import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTool } from '../../src/tool/build_tool.js';
import { executeToolCalls, ToolExecution } from '../../src/tool/executor.js';
import type { ToolCall } from '../../src/tool/run_call.js';
import type { Tool } from '../../src/tool/types.js';
import { testContext } from '../support/runtime_fixtures.js';

interface Span {
  id: string;
  start: number;
  end: number;
}

/** Tools that record when each call starts and ends, to see what overlapped. */
function recordingTools(spans: Span[]): Tool[] {
  const schema = z.object({ id: z.string(), ms: z.number(), fail: z.boolean().optional() });
  const sleeper = (name: string, safe: boolean, extra: { cancelsSiblingsOnError?: boolean } = {}) =>
    buildTool<z.infer<typeof schema>>({
      name,
      inputSchema: schema,
      description: name,
      availability: { profiles: ['standard'] },
      kind: 'other',
      isReadOnly: () => safe,
      isConcurrencySafe: () => safe,
      ...extra,
      async call(input, ctx) {
        const start = performance.now();
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, input.ms);
          ctx.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(new Error('aborted'));
          });
        });
        spans.push({ id: input.id, start, end: performance.now() });
        return { text: `done ${input.id}`, isError: input.fail ?? false };
      },
    });
  return [
    sleeper('safe_sleep', true),
    sleeper('unsafe_sleep', false),
    sleeper('shell_sleep', true, { cancelsSiblingsOnError: true }),
    buildTool({
      name: 'thrower',
      inputSchema: z.object({}),
      description: 'throws',
      availability: { profiles: ['standard'] },
      kind: 'other',
      async call() {
        throw new Error('kaboom');
      },
    }),
  ];
}

const call = (id: string, name: string, input: unknown): ToolCall => ({ id, name, input });
const overlaps = (a: Span, b: Span) => a.start < b.end && b.start < a.end;

/** The most calls running at one moment (a sweep over start and end times). */
function maxConcurrency(spans: Span[]): number {
  const events = spans.flatMap((s) => [
    { t: s.start, d: 1 },
    { t: s.end, d: -1 },
  ]);
  events.sort((a, b) => a.t - b.t || a.d - b.d);
  let now = 0;
  let most = 0;
  for (const e of events) {
    now += e.d;
    most = Math.max(most, now);
  }
  return most;
}

function setup() {
  const spans: Span[] = [];
  const pool = recordingTools(spans);
  return {
    spans,
    options: { pool, context: testContext({ settings: { approvals: { executeAll: 'allow' } } }) },
  };
}

describe('executor', () => {
  it('runs consecutive concurrency-safe calls in parallel', async () => {
    const { spans, options } = setup();
    await executeToolCalls(
      ['a', 'b', 'c'].map((id) => call(id, 'safe_sleep', { id, ms: 150 })),
      options,
    );
    const [a, b, c] = ['a', 'b', 'c'].map((id) => spans.find((s) => s.id === id)!);
    expect(overlaps(a, b) && overlaps(b, c) && overlaps(a, c)).toBe(true);
  });

  it('runs a call that is not concurrency-safe alone', async () => {
    const { spans, options } = setup();
    await executeToolCalls(
      [
        call('a', 'safe_sleep', { id: 'a', ms: 80 }),
        call('b', 'safe_sleep', { id: 'b', ms: 80 }),
        call('u', 'unsafe_sleep', { id: 'u', ms: 80 }),
        call('c', 'safe_sleep', { id: 'c', ms: 80 }),
      ],
      options,
    );
    const u = spans.find((s) => s.id === 'u')!;
    for (const other of spans.filter((s) => s.id !== 'u')) expect(overlaps(u, other)).toBe(false);
    expect(overlaps(spans.find((s) => s.id === 'a')!, spans.find((s) => s.id === 'b')!)).toBe(true);
  });

  it('returns results in call order even when later calls finish first', async () => {
    const { options } = setup();
    const results = await executeToolCalls(
      [
        call('slow', 'safe_sleep', { id: 'slow', ms: 200 }),
        call('fast', 'safe_sleep', { id: 'fast', ms: 10 }),
      ],
      options,
    );
    expect(results.map((r) => r.call.id)).toEqual(['slow', 'fast']);
    expect(results[0].result.text).toBe('done slow');
  });

  it('bounds parallelism at the configured limit', async () => {
    const { spans, options } = setup();
    const ids = Array.from({ length: 6 }, (_, i) => `p${i}`);
    await executeToolCalls(
      ids.map((id) => call(id, 'safe_sleep', { id, ms: 100 })),
      { ...options, concurrency: 2 },
    );
    expect(maxConcurrency(spans)).toBe(2);
  });

  it('runs at most 10 at once by default', async () => {
    const { spans, options } = setup();
    const ids = Array.from({ length: 14 }, (_, i) => `p${i}`);
    await executeToolCalls(
      ids.map((id) => call(id, 'safe_sleep', { id, ms: 120 })),
      options,
    );
    expect(maxConcurrency(spans)).toBe(10);
  });

  it('cancels one running call without touching the others', async () => {
    const { options } = setup();
    const execution = new ToolExecution(options);
    execution.add(call('keep', 'safe_sleep', { id: 'keep', ms: 100 }));
    execution.add(call('stop', 'safe_sleep', { id: 'stop', ms: 5_000 }));
    execution.close();
    setTimeout(() => execution.cancel('stop'), 20);
    const results = [];
    for await (const r of execution.results()) results.push(r);
    expect(results[0].result).toMatchObject({ isError: false, text: 'done keep' });
    expect(results[1].result.isError).toBe(true);
    expect(results[1].result.text).toMatch(/cancelled/);
  });

  it('a queued call that is cancelled never starts', async () => {
    const { spans, options } = setup();
    const execution = new ToolExecution(options);
    execution.add(call('u1', 'unsafe_sleep', { id: 'u1', ms: 80 }));
    execution.add(call('u2', 'unsafe_sleep', { id: 'u2', ms: 80 }));
    execution.cancel('u2');
    execution.close();
    const results = [];
    for await (const r of execution.results()) results.push(r);
    expect(results[1].result.text).toMatch(/Not run/);
    expect(spans.map((s) => s.id)).toEqual(['u1']);
  });

  it('a failing shell call cancels its running siblings', async () => {
    const { options } = setup();
    const results = await executeToolCalls(
      [
        call('long', 'safe_sleep', { id: 'long', ms: 5_000 }),
        call('bad', 'shell_sleep', { id: 'bad', ms: 20, fail: true }),
      ],
      options,
    );
    expect(results[1].result.isError).toBe(true);
    expect(results[0].result.isError).toBe(true);
    expect(results[0].result.text).toMatch(/cancelled/);
  });

  it('a failing call that is not a shell call leaves its siblings alone', async () => {
    const { options } = setup();
    const results = await executeToolCalls(
      [
        call('ok', 'safe_sleep', { id: 'ok', ms: 100 }),
        call('bad', 'safe_sleep', { id: 'bad', ms: 10, fail: true }),
      ],
      options,
    );
    expect(results[0].result).toMatchObject({ isError: false, text: 'done ok' });
  });

  it.each([
    ['an unknown tool', call('x', 'no_such_tool', {}), /Unknown tool "no_such_tool"/],
    ['bad JSON', call('x', 'safe_sleep', '{"id": '), /not valid JSON/],
    [
      'a schema violation',
      call('x', 'safe_sleep', { id: 3, ms: 'soon' }),
      /Invalid arguments for safe_sleep:[\s\S]*id/,
    ],
    ['a throw', call('x', 'thrower', {}), /thrower failed: kaboom/],
  ])('turns %s into an error result', async (_name, theCall, message) => {
    const { options } = setup();
    const [{ result }] = await executeToolCalls([theCall], options);
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(message);
  });

  it('accepts calls that stream in one by one', async () => {
    const { options } = setup();
    async function* stream() {
      yield call('a', 'safe_sleep', { id: 'a', ms: 30 });
      await new Promise((r) => setTimeout(r, 20));
      yield call('b', 'safe_sleep', { id: 'b', ms: 5 });
    }
    const results = await executeToolCalls(stream(), options);
    expect(results.map((r) => r.result.text)).toEqual(['done a', 'done b']);
  });

  it('interrupting the whole run cancels every call', async () => {
    const { options } = setup();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const results = await executeToolCalls(
      [call('a', 'safe_sleep', { id: 'a', ms: 5_000 }), call('u', 'unsafe_sleep', { id: 'u', ms: 10 })],
      { ...options, signal: controller.signal },
    );
    expect(results.every((r) => r.result.isError)).toBe(true);
  });
});
