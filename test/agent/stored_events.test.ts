import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readAgentEvent } from '../../src/agent/stored_events.js';
import { sessionsDir } from '../../src/config/paths.js';
import { closeFakeServers, runHeadless } from '../support/headless_run.js';
import { writeTree } from '../support/runtime_fixtures.js';

afterEach(closeFakeServers);

describe('reading a stored line into the one event type', () => {
  it('reads every kind a real run writes', async () => {
    const dir = writeTree({ 'a.txt': 'A' }, 'lathe-repo-');
    const r = await runHeadless(dir, [
      { toolCalls: [{ name: 'working_respond', input: { message: 'Reading a.txt next.' } }] },
      { toolCalls: [{ name: 'read_file', input: { path: 'a.txt' } }] },
      { toolCalls: [{ name: 'attempt_completion', input: { result: 'Read it.' } }] },
    ]);
    expect(r.json).toMatchObject({ outcome: 'completed' });
    const folder = sessionsDir(r.home, dir);
    const [file] = readdirSync(folder).filter((name) => name.endsWith('.jsonl'));
    const lines = readFileSync(join(folder, file), 'utf8').split('\n').filter(Boolean);
    const events = lines.map((line) => readAgentEvent(line));
    expect(events.filter((event) => event.type === 'unknown')).toEqual([]);
    const kinds = new Set(events.map((event) => event.type));
    for (const kind of [
      'session_start',
      'user_message',
      'request_start',
      'tool_call',
      'tool_result',
      'working',
      'model_message',
      'done',
      'session_end',
    ])
      expect(kinds).toContain(kind);
    const read = events.find((event) => event.type === 'tool_result' && event.name === 'read_file');
    expect(read).toMatchObject({ result: { isError: false } });
  });

  it('turns a line it cannot read into the unknown value, without throwing', () => {
    expect(readAgentEvent('{"type":"user_message","text":"hi"')).toMatchObject({ type: 'unknown' });
    expect(readAgentEvent('[1,2]')).toEqual({ type: 'unknown', reason: 'not a JSON object' });
    expect(readAgentEvent('{"text":"no kind"}')).toEqual({ type: 'unknown', reason: 'no "type" field' });
    expect(readAgentEvent('{"type":"checkpoint","seq":12}')).toEqual({
      type: 'unknown',
      reason: 'unknown kind "checkpoint"',
      entry: { type: 'checkpoint', seq: 12 },
    });
    expect(readAgentEvent({ type: 'tool_result', name: 'shell', result: 'exit 1' })).toMatchObject({
      type: 'unknown',
      reason: 'tool_result without a object "result"',
    });
    // A kind the log leaves out (a per-token delta) is no stored kind either.
    expect(readAgentEvent({ type: 'text_delta', text: 'Hel' })).toMatchObject({ type: 'unknown' });
    expect(readAgentEvent({ type: 'toString' })).toMatchObject({ type: 'unknown' });
  });
});
