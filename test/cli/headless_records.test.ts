import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/events.js';
import { eventRecord, snakeCase } from '../../src/cli/headless/records.js';

const usage = { inputTokens: 12, outputTokens: 3, cachedInputTokens: 4, cacheWriteInputTokens: 2 };
const outcome = { kind: 'completed' as const, text: 'ok', usage, turns: 1 };

/** One event of every type; the type makes a new event type fail to compile until it is added here. */
const ONE_OF_EACH: { [T in AgentEvent['type']]: Extract<AgentEvent, { type: T }> } = {
  user_message: { type: 'user_message', text: 'hi' },
  request_start: { type: 'request_start', turn: 1 },
  text_delta: { type: 'text_delta', text: 'h' },
  assistant_text: { type: 'assistant_text', text: 'hello' },
  tool_call: { type: 'tool_call', id: 'c1', name: 'mcp__tool', input: { someField: 1 } },
  tool_start: { type: 'tool_start', id: 'c1', name: 'read_file' },
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
  usage: { type: 'usage', usage, contextTokens: 15 },
  retry: { type: 'retry', attempt: 1, delayMs: 1000, message: 'rate limited' },
  mode_change: { type: 'mode_change', mode: 'plan' },
  working: { type: 'working', message: 'reading' },
  phase_report: { type: 'phase_report', phase: 'one', markdown: '# one' },
  report: { type: 'report', title: 'R', markdown: '# R', path: '/tmp/r.md' },
  plan: { type: 'plan', markdown: '1. do' },
  todo: { type: 'todo', items: [{ text: 'a', status: 'in_progress' }] },
  question: { type: 'question', question: 'Which?', options: ['a'], answer: 'a' },
  compaction: { type: 'compaction', summary: 'short', before: 9000 },
  notice: { type: 'notice', message: 'note' },
  error: { type: 'error', message: 'failed' },
  done: { type: 'done', outcome },
};

const SNAKE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

function keysOutsideInput(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOutsideInput);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => [
    key,
    ...(key === 'input' ? [] : keysOutsideInput(inner)),
  ]);
}

describe('stream-json records', () => {
  it('names every field of every event type in snake_case', () => {
    for (const event of Object.values(ONE_OF_EACH)) {
      const record = eventRecord(event);
      expect(
        keysOutsideInput(record).filter((key) => !SNAKE.test(key)),
        event.type,
      ).toEqual([]);
    }
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
