import * as fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionLog } from '../../src/session/log.js';
import { readSessionTail } from '../../src/session/tail.js';
import { tempDir } from '../support/runtime_fixtures.js';

let root: string;
beforeEach(() => {
  root = tempDir('lathe-tail-');
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

const message = (role: string, text: string) => ({
  type: 'model_message',
  message: { role, content: [{ type: 'text', text }] },
});

function newLog(
  meta: Record<string, unknown> = { model: 'a/one', profile: 'lite', mode: 'act' },
): SessionLog {
  return SessionLog.create({ documentsRoot: root, workspace: '/projects/tail', id: 't', meta });
}

describe('readSessionTail', () => {
  it('takes the conversation from the latest compaction on', () => {
    const log = newLog();
    log.append(message('user', 'before'));
    log.append({ type: 'compacted_messages', messages: [{ role: 'user', content: [] }] });
    log.append(message('user', 'old summary is replaced'));
    log.append({
      type: 'compacted_messages',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'S' }] }],
    });
    log.append(message('assistant', 'after'));
    log.close();
    const tail = readSessionTail(log.path);
    expect(tail.conversation.map((event) => event.type)).toEqual(['compacted_messages', 'model_message']);
    expect(JSON.stringify(tail.conversation[0].messages)).toContain('"S"');
    expect(tail.lastSeq).toBe(5);
    expect(tail.start?.id).toBe('t');
  });

  it('restores the newest model, profile and mode, falling back to session_start', () => {
    const log = newLog();
    log.append({ type: 'mode_change', mode: 'plan' });
    log.append({ type: 'settings_change', model: 'b/two', profile: 'lite', mode: 'act' });
    log.append({ type: 'mode_change', mode: 'plan' });
    log.close();
    expect(readSessionTail(log.path).settings).toEqual({ model: 'b/two', profile: 'lite', mode: 'plan' });
    const plain = SessionLog.create({
      documentsRoot: root,
      workspace: '/p',
      id: 'u',
      meta: { model: 'c/three' },
    });
    plain.close();
    expect(readSessionTail(plain.path).settings).toEqual({ model: 'c/three' });
  });

  it('skips a damaged record in the middle with a warning, and a torn last line silently', () => {
    const log = newLog();
    log.append(message('user', 'one'));
    log.close();
    fs.appendFileSync(log.path, '{"type":"model_message","message":{"role":"assis\n');
    fs.appendFileSync(log.path, '\u0000\u0000garbage\n');
    const reopened = SessionLog.open(log.path);
    reopened.append(message('user', 'two'));
    reopened.close();
    fs.appendFileSync(log.path, '{"type":"tool_result","te');
    const tail = readSessionTail(log.path);
    expect(tail.conversation.map((event) => (event.message as { role: string }).role)).toEqual([
      'user',
      'user',
    ]);
    expect(tail.warnings).toHaveLength(2);
    expect(tail.warnings[0]).toMatch(/^session log: skipped a damaged record at byte \d+ \(/);
  });

  it('keeps the last events worth showing, in order, without bookkeeping', () => {
    const log = newLog();
    log.append({ type: 'user_message', text: 'hi' });
    log.append({ type: 'request_start', turn: 1 });
    log.append({ type: 'assistant_text', text: 'hello' });
    log.append({ type: 'done' });
    log.close();
    expect(readSessionTail(log.path).recent.map((event) => event.type)).toEqual([
      'user_message',
      'assistant_text',
    ]);
  });
});
