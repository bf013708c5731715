import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type AgentEvent, emptyUsage, type ToolEvent } from '../../src/agent/events.js';
import { historyFromEvents } from '../../src/agent/session_history.js';
import { recordAgentEvent, recordCompaction, recordMessage } from '../../src/agent/session_record.js';
import { sessionsDir } from '../../src/config/paths.js';
import { SessionLog } from '../../src/session/log.js';
import { readSessionLog } from '../../src/session/read.js';
import { closeFakeServers, runHeadless } from '../support/headless_run.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

afterEach(closeFakeServers);

function newLog(): SessionLog {
  return SessionLog.create({ documentsRoot: tempDir('lathe-home-'), workspace: tempDir(), meta: {} });
}

/** Every event a tool can show, typed as the tools emit it. */
const TOOL_EVENTS: ToolEvent[] = [
  { type: 'working', message: 'Reading a.txt next.' },
  { type: 'plan', markdown: '1. read\n2. fix' },
  { type: 'phase_report', phase: 'read', markdown: 'read it' },
  { type: 'report', title: 'Done', markdown: '# Done', path: '/tmp/report.md' },
  { type: 'todo', items: [{ text: 'fix the bug', status: 'in_progress' }] },
];

describe('recording agent events in the session log', () => {
  it('keeps every tool event as the agent emitted it, and leaves out text deltas and usage', () => {
    const log = newLog();
    const events: AgentEvent[] = [
      { type: 'text_delta', text: 'Hel' },
      ...TOOL_EVENTS,
      { type: 'usage', request: emptyUsage(), usage: emptyUsage(), contextTokens: 10 },
      { type: 'tool_start', id: 'c1', name: 'read_file' },
    ];
    for (const event of events) recordAgentEvent(log, event);
    log.close();
    const recorded = readSessionLog(log.path).events.filter((e) => e.type !== 'session_start');
    expect(recorded.map(({ seq: _seq, time: _time, ...rest }) => rest)).toEqual([
      ...TOOL_EVENTS,
      { type: 'tool_start', id: 'c1', name: 'read_file' },
    ]);
  });

  it('records the conversation so that resume reads it back from the last compaction', () => {
    const log = newLog();
    recordMessage(log, { role: 'user', content: [{ type: 'text', text: 'before the compaction' }] });
    recordCompaction(log, [{ role: 'user', content: [{ type: 'text', text: 'the summary' }] }]);
    recordMessage(log, { role: 'assistant', content: [{ type: 'text', text: 'after it' }] });
    log.close();
    expect(historyFromEvents(readSessionLog(log.path).events)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'the summary' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'after it' }] },
    ]);
  });

  it('does nothing without a log (a session whose log could not be opened)', () => {
    expect(() => recordAgentEvent(undefined, TOOL_EVENTS[0])).not.toThrow();
  });

  it('a headless run records the events its tools emitted and no text deltas', async () => {
    const dir = writeTree({ 'a.txt': 'A' }, 'lathe-repo-');
    const r = await runHeadless(dir, [
      { toolCalls: [{ name: 'working_respond', input: { message: 'Reading a.txt next.' } }] },
      { toolCalls: [{ name: 'attempt_completion', input: { result: 'Read it.' } }] },
    ]);
    expect(r.json).toMatchObject({ outcome: 'completed' });
    const folder = sessionsDir(r.home, dir);
    const [file] = readdirSync(folder);
    const types = readSessionLog(join(folder, file)).events.map((e) => e.type);
    expect(types).toContain('working');
    expect(types).not.toContain('text_delta');
    expect(types).not.toContain('usage');
    expect(readSessionLog(join(folder, file)).events.find((e) => e.type === 'working')).toMatchObject({
      message: 'Reading a.txt next.',
    });
  });
});
