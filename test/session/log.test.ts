import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessionsDir } from '../../src/config/paths.js';
import { sessionFolder } from '../../src/session/ids.js';
import { MAX_EVENT_BYTES, SessionLog } from '../../src/session/log.js';
import { readSessionLog } from '../../src/session/read.js';
import type { WireJson } from '../support/fake_model/types.js';

const workspace = '/projects/alpha';
let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-session-log-'));
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

const lines = (file: string) => fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);

describe('SessionLog.create', () => {
  it('writes a session_start record under the project folder', () => {
    const log = SessionLog.create({
      documentsRoot: root,
      workspace,
      id: 's1',
      meta: { model: 'm', mode: 'build' },
    });
    log.close();
    expect(log.path).toBe(path.join(sessionsDir(root, workspace), 's1.jsonl'));
    expect(log.folder).toBe(sessionFolder(root, workspace, 's1'));
    const [first] = readSessionLog(log.path).events;
    expect(first).toMatchObject({ type: 'session_start', id: 's1', workspace, meta: { model: 'm' }, seq: 0 });
    expect(new Date(first.time as string).toISOString()).toBe(first.time);
  });

  it('makes a fresh id when none is given', () => {
    const log = SessionLog.create({ documentsRoot: root, workspace, meta: {} });
    log.close();
    expect(log.id).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}$/);
    expect(path.basename(log.path)).toBe(`${log.id}.jsonl`);
  });

  it('refuses to overwrite an existing session', () => {
    SessionLog.create({ documentsRoot: root, workspace, id: 'dup', meta: {} }).close();
    expect(() => SessionLog.create({ documentsRoot: root, workspace, id: 'dup', meta: {} })).toThrow(
      /EEXIST/,
    );
  });
});

describe('SessionLog.append', () => {
  it('writes one line per event with time and increasing seq, and reads back', () => {
    const log = SessionLog.create({ documentsRoot: root, workspace, id: 's', meta: {} });
    log.append({ type: 'user_message', text: 'hi\nthere' });
    log.append({ type: 'assistant_text', text: 'hello' });
    log.close();
    expect(lines(log.path)).toHaveLength(3);
    const { events, tornLine, errors } = readSessionLog(log.path);
    expect({ tornLine, errors }).toEqual({ tornLine: false, errors: [] });
    expect(events.map((event) => [event.type, event.seq])).toEqual([
      ['session_start', 0],
      ['user_message', 1],
      ['assistant_text', 2],
    ]);
    expect(events[1].text).toBe('hi\nthere');
    expect(typeof events[2].time).toBe('string');
  });

  it('keeps a given time and seq', () => {
    const log = SessionLog.create({ documentsRoot: root, workspace, id: 's', meta: {} });
    log.append({ type: 'x', time: '2020-01-01T00:00:00.000Z', seq: 10 });
    log.append({ type: 'y' });
    log.close();
    const { events } = readSessionLog(log.path);
    expect(events[1]).toMatchObject({ time: '2020-01-01T00:00:00.000Z', seq: 10 });
    expect(events[2].seq).toBe(11);
  });

  it('throws after close, and close is idempotent', () => {
    const log = SessionLog.create({ documentsRoot: root, workspace, id: 's', meta: {} });
    log.close();
    log.close();
    expect(log.closed).toBe(true);
    expect(() => log.append({ type: 'late' })).toThrow(/closed/);
  });

  it('closed while its background sync runs, keeps every line and lets go of the file', async () => {
    const log = SessionLog.create({ documentsRoot: root, workspace, id: 's', meta: {} });
    for (let i = 0; i < 200; i++) log.append({ type: 'step', i });
    log.close();
    expect(lines(log.path)).toHaveLength(201);
    // The file is closed once the sync under way returns: no descriptor of this process is left on it.
    const openOnLog = () =>
      fs.readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return fs.readlinkSync(`/proc/self/fd/${fd}`) === log.path;
        } catch {
          return false;
        }
      });
    for (let wait = 0; wait < 1000 && openOnLog().length > 0; wait++)
      await new Promise((resolve) => setTimeout(resolve, 5));
    expect(openOnLog()).toEqual([]);
    expect(readSessionLog(log.path).events.at(-1)).toMatchObject({ type: 'step', i: 199, seq: 200 });
  });

  it('does not throw on bigint values', () => {
    const log = SessionLog.create({ documentsRoot: root, workspace, id: 's', meta: {} });
    log.append({ type: 'usage', tokens: 12n });
    log.close();
    expect(readSessionLog(log.path).events[1].tokens).toBe('12');
  });

  it('cuts the big string fields of an event over the size limit', () => {
    const log = SessionLog.create({ documentsRoot: root, workspace, id: 's', meta: {} });
    const big = 'a'.repeat(3_000_000);
    log.append({ type: 'tool_result', name: 'shell', result: { parts: [{ text: big }] }, small: 'kept' });
    log.append({ type: 'after' });
    log.close();
    const raw = lines(log.path)[1];
    expect(Buffer.byteLength(raw)).toBeLessThanOrEqual(MAX_EVENT_BYTES);
    const { events } = readSessionLog(log.path);
    const event = events[1] as WireJson;
    expect(event.small).toBe('kept');
    expect(event.truncatedFields).toEqual(['result.parts[0].text']);
    expect(event.result.parts[0].text).toMatch(
      /^a+\n…\[truncated by session log: 3000000 chars, kept \d+\]$/,
    );
    expect(event.result.parts[0].text.length).toBeGreaterThan(MAX_EVENT_BYTES / 2);
    expect(events[2].type).toBe('after');
  });

  it('cuts multi-byte strings by their encoded size', () => {
    const log = SessionLog.create({ documentsRoot: root, workspace, id: 's', meta: {} });
    log.append({ type: 'big', a: '€'.repeat(600_000), b: '😀'.repeat(300_000) });
    log.close();
    expect(Buffer.byteLength(lines(log.path)[1])).toBeLessThanOrEqual(MAX_EVENT_BYTES);
    const event = readSessionLog(log.path).events[1];
    expect((event.truncatedFields as string[]).sort()).toEqual(['a', 'b']);
    expect(event.b as string).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it('replaces an event whose bulk is not in strings with a stub', () => {
    const log = SessionLog.create({ documentsRoot: root, workspace, id: 's', meta: {} });
    log.append({ type: 'numbers', values: Array.from({ length: 300_000 }, (_, i) => i) });
    log.close();
    const event = readSessionLog(log.path).events[1];
    expect(event).toMatchObject({ type: 'numbers', seq: 1 });
    expect(event.values).toBeUndefined();
    expect(event.dropped).toMatch(/too large/);
  });
});

describe('SessionLog.open', () => {
  it('resumes the same file with the next seq', () => {
    const first = SessionLog.create({ documentsRoot: root, workspace, id: 'r', meta: {} });
    first.append({ type: 'user_message', text: 'one' });
    first.close();
    const resumed = SessionLog.open(first.path);
    expect(resumed.id).toBe('r');
    resumed.append({ type: 'user_message', text: 'two' });
    resumed.close();
    const { events } = readSessionLog(first.path);
    expect(events.map((event) => event.seq)).toEqual([0, 1, 2]);
  });

  it('drops a torn last line before appending', () => {
    const log = SessionLog.create({ documentsRoot: root, workspace, id: 'r', meta: {} });
    log.close();
    fs.appendFileSync(log.path, '{"type":"assistant_text","te');
    const resumed = SessionLog.open(log.path);
    resumed.append({ type: 'after' });
    resumed.close();
    expect(readSessionLog(log.path)).toMatchObject({ tornLine: false, errors: [] });
    expect(readSessionLog(log.path).events.map((event) => [event.type, event.seq])).toEqual([
      ['session_start', 0],
      ['after', 1],
    ]);
  });

  it('keeps a complete last line that lacks its newline', () => {
    const log = SessionLog.create({ documentsRoot: root, workspace, id: 'r', meta: {} });
    log.close();
    fs.appendFileSync(log.path, '{"type":"note","seq":1}');
    const resumed = SessionLog.open(log.path);
    resumed.append({ type: 'after' });
    resumed.close();
    const { events, errors } = readSessionLog(log.path);
    expect(errors).toEqual([]);
    expect(events.map((event) => [event.type, event.seq])).toEqual([
      ['session_start', 0],
      ['note', 1],
      ['after', 2],
    ]);
  });
});
