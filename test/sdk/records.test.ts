import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/events.js';
import { eventRecord, snakeCase } from '../../src/sdk/records.js';
import { initRecord, resultRecord } from '../../src/sdk/run_records.js';

const usage = { inputTokens: 12, outputTokens: 3, cachedInputTokens: 4, cacheWriteTokens: 2 };
const outcome = { kind: 'completed' as const, text: 'ok', usage, turns: 1 };

/** One event of every type; the type makes a new event type fail to compile until it is added here. */
const ONE_OF_EACH: { [T in AgentEvent['type']]: Extract<AgentEvent, { type: T }> } = {
  user_message: { type: 'user_message', text: 'hi' },
  request_start: { type: 'request_start', turn: 1 },
  text_delta: { type: 'text_delta', text: 'h' },
  thinking_delta: { type: 'thinking_delta', text: 'hm' },
  assistant_text: { type: 'assistant_text', text: 'hello' },
  tool_call: { type: 'tool_call', id: 'c1', name: 'mcp__tool', input: { someField: 1 } },
  tool_start: { type: 'tool_start', id: 'c1', name: 'read_file' },
  tool_progress: { type: 'tool_progress', id: 'c1', name: 'docs__build', message: '2/3 compiling' },
  tool_result: {
    type: 'tool_result',
    id: 'c1',
    name: 'execute_command',
    result: {
      isError: true,
      text: 'Not run',
      data: { innerField: 1 },
      savedPath: '/tmp/out.txt',
      images: [{ mediaType: 'image/png', data: 'AA==' }],
      permissionDenial: { reason: 'needs approval', category: 'executeAll', remedy: '--approve executeAll' },
    },
  },
  usage: { type: 'usage', request: usage, usage, contextTokens: 15 },
  retry: { type: 'retry', attempt: 1, delayMs: 1000, message: 'rate limited' },
  mode_change: { type: 'mode_change', mode: 'plan' },
  working: { type: 'working', message: 'reading' },
  phase_report: { type: 'phase_report', phase: 'one', markdown: '# one' },
  report: { type: 'report', title: 'R', markdown: '# R', path: '/tmp/r.md' },
  plan: { type: 'plan', markdown: '1. do' },
  todo: { type: 'todo', items: [{ text: 'a', status: 'in_progress' }] },
  brief: { type: 'brief', on: true },
  user_file: { type: 'user_file', path: 'r.md', absolutePath: '/tmp/r.md', bytes: 3, caption: 'the report' },
  notification: { type: 'notification', title: 'Done', body: 'The build passed' },
  question: { type: 'question', question: 'Which?', options: ['a'], answer: 'a' },
  compaction: { type: 'compaction', summary: 'short', before: 9000 },
  notice: { type: 'notice', message: 'note' },
  approval_request: {
    type: 'approval_request',
    id: 'c3',
    tool: 'execute_command',
    inputSummary: 'Run npm test',
    reason: 'execute_command needs approval',
    category: 'executeAll',
  },
  approval_answer: {
    type: 'approval_answer',
    id: 'c3',
    tool: 'execute_command',
    answer: 'deny',
    by: 'canUseTool',
    reason: 'not now',
    inputChanged: false,
  },
  error: { type: 'error', message: 'failed' },
  done: { type: 'done', outcome },
  subagent: {
    type: 'subagent',
    child: { id: 'agent_1', name: 'scan', type: 'explore', depth: 1 },
    event: { type: 'tool_call', id: 'c2', name: 'read_file', input: { path: 'a' } },
  },
};

const SNAKE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

/** Fields whose values are the model's data, kept as it wrote them. */
const DATA_FIELDS = new Set(['input', 'structured_output']);

function fieldNames(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(fieldNames);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => [
    key,
    ...(DATA_FIELDS.has(key) ? [] : fieldNames(inner)),
  ]);
}

describe('stream-json records', () => {
  it('names every field of every event type in snake_case', () => {
    for (const event of Object.values(ONE_OF_EACH)) {
      const record = eventRecord(event);
      expect(
        fieldNames(record).filter((key) => !SNAKE.test(key)),
        event.type,
      ).toEqual([]);
    }
  });

  it('has every event type and field documented in docs/headless.md', () => {
    const docs = readFileSync(new URL('../../docs/headless.md', import.meta.url), 'utf8');
    for (const event of Object.values(ONE_OF_EACH)) {
      const record = eventRecord(event);
      if (!record) continue;
      expect(docs, record.type as string).toContain(`| \`${record.type}\` |`);
      // A field is named in backticks, alone or under its parent (`usage.input_tokens`).
      for (const key of fieldNames(record))
        expect(docs, `${record.type}.${key}`).toMatch(new RegExp(`\`([a-z_]+\\.)?${key}\``));
    }
  });

  it('has every field of the init and result records documented, in snake_case', () => {
    const docs = readFileSync(new URL('../../docs/headless.md', import.meta.url), 'utf8');
    const runtime = {
      cwd: '/work',
      pool: [{ name: 'read_file' }],
      conditions: { profile: 'standard', mode: 'act', jsonSchema: true },
      mcp: { servers: () => [{ name: 'gh', state: 'failed', error: 'exited', tools: [] }] },
      commands: { list: () => [{ name: 'review', description: 'Review', argumentHint: '[file]' }] },
    } as unknown as Parameters<typeof initRecord>[0]['runtime'];
    const init = initRecord({ sessionId: 's', model: 'anthropic/x', runtime, approve: ['edit'] });
    const denied = { tool: 'read_file', call_id: 'c', input: {}, reason: 'r', category: 'read', remedy: 'm' };
    const result = resultRecord(
      { outcome: { ...outcome, structuredOutput: { a: 1 } }, sessionId: 's', durationMs: 5 },
      { permissionDenials: [denied], jsonSchema: true, children: { usage, costUsd: 0.25 } },
    );
    for (const record of [init, result]) {
      for (const key of fieldNames(record)) {
        expect(key).toMatch(SNAKE);
        expect(docs, key).toMatch(new RegExp(`\`([a-z_]+\\.)?${key}\``));
      }
    }
    expect(result.structured_output).toEqual({ a: 1 });
  });

  it("keeps the run's own usage apart from its children's, and totals the cost of both", () => {
    const children = { usage: { ...usage, inputTokens: 100 }, costUsd: 0.25 };
    const result = resultRecord(
      { outcome: { ...outcome, costUsd: 0.5 }, sessionId: 's', durationMs: 5 },
      { permissionDenials: [], jsonSchema: false, children },
    );
    expect(result.usage).toEqual({
      input_tokens: 12,
      output_tokens: 3,
      cache_read_input_tokens: 4,
      cache_creation_input_tokens: 2,
      children: {
        input_tokens: 100,
        output_tokens: 3,
        cache_read_input_tokens: 4,
        cache_creation_input_tokens: 2,
        cost_usd: 0.25,
      },
    });
    expect(result.total_cost_usd).toBe(0.75);
    const unpriced = resultRecord(
      { outcome, sessionId: 's', durationMs: 5 },
      { permissionDenials: [], jsonSchema: false, children: { usage } },
    );
    expect(unpriced.total_cost_usd).toBeNull();
    expect((unpriced.usage as { children: { cost_usd: unknown } }).children.cost_usd).toBeNull();
  });

  it('leaves out done, which the result record replaces', () => {
    expect(eventRecord(ONE_OF_EACH.done)).toBeUndefined();
  });

  it('flattens a tool result and keeps its refusal, without data or image bytes', () => {
    expect(eventRecord(ONE_OF_EACH.tool_result)).toEqual({
      type: 'tool_result',
      id: 'c1',
      name: 'execute_command',
      is_error: true,
      text: 'Not run',
      saved_path: '/tmp/out.txt',
      image_count: 1,
      permission_denial: { reason: 'needs approval', category: 'executeAll', remedy: '--approve executeAll' },
    });
  });

  it('keeps a tool call input as the model wrote it', () => {
    expect(eventRecord(ONE_OF_EACH.tool_call)).toMatchObject({ input: { someField: 1 } });
  });

  it('renames the fields of an event type it does not know', () => {
    const unknown = {
      type: 'later_event',
      someValue: { deepKey: [{ innerName: 1 }] },
    } as unknown as AgentEvent;
    expect(eventRecord(unknown)).toEqual({
      type: 'later_event',
      some_value: { deep_key: [{ inner_name: 1 }] },
    });
  });

  it('turns camelCase into snake_case', () => {
    expect(['isError', 'contextTokens', 'savedPath', 'already_snake', 'x'].map(snakeCase)).toEqual([
      'is_error',
      'context_tokens',
      'saved_path',
      'already_snake',
      'x',
    ]);
  });
});
