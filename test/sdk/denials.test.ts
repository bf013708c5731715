import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/events.js';
import { DenialCollector, refusalLine } from '../../src/sdk/denials.js';
import { eventRecord } from '../../src/sdk/records.js';

/** The collector reads the run's records, as stream-json prints them. */
const take = (collector: DenialCollector, event: AgentEvent) => collector.take(eventRecord(event)!);

describe('refusal lines', () => {
  it('names the tool, what the call was about, the reason and the remedy', () => {
    const line = refusalLine({
      tool: 'execute_command',
      call_id: 'c1',
      input: { command: 'rm -rf build' },
      reason: 'execute_command needs approval (category executeAll)',
      category: 'executeAll',
      remedy: 'rerun with --approve executeAll or --yolo, or add an allow rule',
    });
    expect(line).toBe(
      'refused: execute_command `rm -rf build` — needs approval (category executeAll); rerun with --approve executeAll or --yolo, or add an allow rule',
    );
  });

  it('stays one line when the command, a path or the reason holds line breaks or control characters', () => {
    const line = refusalLine({
      tool: 'write_to_file',
      call_id: 'c2',
      input: { path: 'odd\nname\u001b[31m.txt', content: 'x' },
      reason: 'odd\nname.txt is protected',
    });
    expect(line.split('\n')).toHaveLength(1);
    expect(line).not.toContain('\u001b');
    expect(line).toMatch(/^refused: write_to_file `odd name\[31m\.txt` — odd name\.txt is protected$/);
  });

  it('shows the input of a tool without a path as compact JSON', () => {
    const line = refusalLine({
      tool: 'github__create_issue',
      call_id: 'c3',
      input: { title: 'Bug' },
      reason: 'denied by rule github__* (settings)',
    });
    expect(line).toBe(
      'refused: github__create_issue `{"title":"Bug"}` — denied by rule github__* (settings)',
    );
  });
});

describe('collecting denials from the records of events', () => {
  it('pairs a refused result with the input of its call, parsed when it came as JSON text', () => {
    const denials = new DenialCollector();
    take(denials, { type: 'tool_call', id: 'a', name: 'read_file', input: '{"path":"x.txt"}' });
    take(denials, { type: 'tool_call', id: 'b', name: 'execute_command', input: { command: 'ls' } });
    const ran = take(denials, {
      type: 'tool_result',
      id: 'b',
      name: 'execute_command',
      result: { isError: false, text: 'x.txt' },
    });
    const refused = take(denials, {
      type: 'tool_result',
      id: 'a',
      name: 'read_file',
      result: { isError: true, text: 'Not run', permissionDenial: { reason: 'denied by rule' } },
    });
    expect(ran).toBeUndefined();
    expect(refused).toEqual({
      tool: 'read_file',
      call_id: 'a',
      input: { path: 'x.txt' },
      reason: 'denied by rule',
    });
    expect(denials.denied).toEqual([refused]);
  });

  it('does not count a failed call that permissions allowed', () => {
    const denials = new DenialCollector();
    take(denials, { type: 'tool_call', id: 'a', name: 'read_file', input: { path: 'missing' } });
    take(denials, {
      type: 'tool_result',
      id: 'a',
      name: 'read_file',
      result: { isError: true, text: 'No such file' },
    });
    expect(denials.denied).toEqual([]);
  });
});

describe("a child agent's refused calls", () => {
  it('are listed with the child that made them, kept apart from the parent call of the same id', () => {
    const collector = new DenialCollector();
    const child = { id: 'agent_1a2b3c4d', name: 'cleaner', type: 'general', depth: 1 };
    const denial = {
      reason: 'execute_command needs approval (category executeAll)',
      category: 'executeAll' as const,
    };
    take(collector, { type: 'tool_call', id: 'c1', name: 'read_file', input: { path: 'a' } });
    take(collector, {
      type: 'subagent',
      child,
      event: { type: 'tool_call', id: 'c1', name: 'execute_command', input: { command: 'rm -rf build' } },
    });
    const denied = take(collector, {
      type: 'subagent',
      child,
      event: {
        type: 'tool_result',
        id: 'c1',
        name: 'execute_command',
        result: { isError: true, text: 'no', permissionDenial: denial },
      },
    });
    expect(denied).toMatchObject({
      tool: 'execute_command',
      input: { command: 'rm -rf build' },
      agent: 'cleaner (agent_1a2b3c4d)',
    });
    expect(refusalLine(denied!)).toBe(
      'refused: execute_command `rm -rf build` (child agent cleaner (agent_1a2b3c4d)) — needs approval (category executeAll)',
    );
    expect(collector.denied).toHaveLength(1);
  });
});
