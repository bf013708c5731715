import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { legacySessionsDir, sessionsDir } from '../../src/config/paths.js';
import {
  AmbiguousSessionError,
  findSession,
  latestSession,
  listSessions,
} from '../../src/session/catalog.js';
import { SessionLog } from '../../src/session/log.js';
import { readSessionLog } from '../../src/session/read.js';

const workspace = '/projects/alpha';
const otherWorkspace = '/projects/beta';
let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-session-read-'));
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

function writeRaw(content: string): string {
  const file = path.join(root, 'raw.jsonl');
  fs.writeFileSync(file, content);
  return file;
}

/** A session whose log was last modified `minutesAgo` ago. */
function makeSession(
  id: string,
  options: { ws?: string; minutesAgo?: number; prompt?: string; messages?: string[]; replied?: boolean } = {},
): string {
  const meta = options.prompt === undefined ? { model: 'm' } : { model: 'm', prompt: options.prompt };
  const log = SessionLog.create({ documentsRoot: root, workspace: options.ws ?? workspace, id, meta });
  for (const text of options.messages ?? []) log.append({ type: 'user_message', text });
  if (options.replied)
    log.append({
      type: 'model_message',
      message: { role: 'assistant', content: [{ type: 'text', text: 'hi' }] },
    });
  log.close();
  const when = new Date(Date.now() - (options.minutesAgo ?? 0) * 60_000);
  fs.utimesSync(log.path, when, when);
  return log.path;
}

describe('readSessionLog', () => {
  it('skips a torn last line and reports it', () => {
    const file = writeRaw('{"type":"a","seq":0}\n{"type":"b","seq":1}\n{"type":"c","te');
    const result = readSessionLog(file);
    expect(result.tornLine).toBe(true);
    expect(result.errors).toEqual([]);
    expect(result.events.map((event) => event.type)).toEqual(['a', 'b']);
  });

  it('reports a corrupt middle line and keeps reading', () => {
    const file = writeRaw('{"type":"a"}\n{"type":"b",,}\n[1,2]\n{"no":"type"}\n\n{"type":"c"}\n');
    const result = readSessionLog(file);
    expect(result.tornLine).toBe(false);
    expect(result.events.map((event) => event.type)).toEqual(['a', 'c']);
    expect(result.errors).toHaveLength(3);
    expect(result.errors[0]).toMatch(/^line 2: invalid JSON/);
    expect(result.errors[1]).toBe('line 3: not a JSON object');
    expect(result.errors[2]).toBe('line 4: no "type" field');
  });

  it('accepts a complete last line without a newline, and an empty file', () => {
    expect(readSessionLog(writeRaw('{"type":"a"}\n{"type":"b"}')).events).toHaveLength(2);
    expect(readSessionLog(writeRaw(''))).toEqual({ events: [], tornLine: false, errors: [] });
  });
});

describe('listSessions', () => {
  it('lists this workspace only, newest first, with cheap summaries', () => {
    makeSession('20240101-000000-aaaaaa', { minutesAgo: 30, prompt: 'fix   the\nbug' });
    makeSession('20240102-000000-bbbbbb', { minutesAgo: 5, messages: ['first question', 'second'] });
    makeSession('20240103-000000-cccccc', { minutesAgo: 60 });
    makeSession('20240104-000000-dddddd', { ws: otherWorkspace });
    fs.mkdirSync(path.join(sessionsDir(root, workspace), '20240101-000000-aaaaaa'));

    const sessions = listSessions({ documentsRoot: root, workspace });
    expect(sessions.map((session) => session.id)).toEqual([
      '20240102-000000-bbbbbb',
      '20240101-000000-aaaaaa',
      '20240103-000000-cccccc',
    ]);
    const [newest, middle, oldest] = sessions;
    expect(newest).toMatchObject({ firstPrompt: 'first question', events: 3, workspace });
    expect(newest.path).toBe(path.join(sessionsDir(root, workspace), '20240102-000000-bbbbbb.jsonl'));
    expect(middle).toMatchObject({ firstPrompt: 'fix the bug', events: 1 });
    expect(oldest.firstPrompt).toBeUndefined();
    expect(Date.parse(newest.updated)).toBeGreaterThan(Date.parse(middle.updated));
    expect(newest.started).toBe(readSessionLog(newest.path).events[0].time);
  });

  it('breaks mtime ties by id and survives odd files', () => {
    const dir = sessionsDir(root, workspace);
    fs.mkdirSync(dir, { recursive: true });
    const when = new Date();
    for (const id of ['b', 'a', 'c']) {
      fs.writeFileSync(
        path.join(dir, `${id}.jsonl`),
        id === 'c' ? 'garbage\n' : `{"type":"session_start","id":"${id}"}\n`,
      );
      fs.utimesSync(path.join(dir, `${id}.jsonl`), when, when);
    }
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'ignored');
    const sessions = listSessions({ documentsRoot: root, workspace });
    expect(sessions.map((session) => session.id)).toEqual(['c', 'b', 'a']);
    expect(sessions[0].events).toBe(1);
  });

  it('is empty when the workspace has no sessions', () => {
    expect(listSessions({ documentsRoot: root, workspace })).toEqual([]);
    expect(latestSession({ documentsRoot: root, workspace })).toBeUndefined();
  });

  it('latestSession picks the most recently updated', () => {
    makeSession('old', { minutesAgo: 10, replied: true });
    makeSession('new', { minutesAgo: 1, replied: true });
    expect(latestSession({ documentsRoot: root, workspace })?.id).toBe('new');
  });

  it('does not count a torn last line as an event', () => {
    const file = makeSession('t');
    fs.appendFileSync(file, '{"type":"user_message","text":"unfini');
    expect(listSessions({ documentsRoot: root, workspace })[0].events).toBe(1);
  });
});

describe('findSession', () => {
  beforeEach(() => {
    makeSession('20240101-000000-aaaaaa');
    makeSession('20240101-000000-aabbbb');
    makeSession('20240102-000000-cccccc');
    makeSession('20240102-000000-cccccc-2');
    makeSession('20240109-000000-ffffff', { ws: otherWorkspace });
  });

  it('finds by full id and by unique prefix', () => {
    expect(findSession(root, workspace, '20240101-000000-aaaaaa')?.id).toBe('20240101-000000-aaaaaa');
    expect(findSession(root, workspace, '20240101-000000-aab')?.id).toBe('20240101-000000-aabbbb');
    expect(findSession(root, workspace, ' 20240101-000000-aab.jsonl ')?.id).toBe('20240101-000000-aabbbb');
  });

  it('prefers an exact id over longer ids it prefixes', () => {
    expect(findSession(root, workspace, '20240102-000000-cccccc')?.id).toBe('20240102-000000-cccccc');
  });

  it('throws on an ambiguous prefix, listing the matches', () => {
    let caught: unknown;
    try {
      findSession(root, workspace, '20240101');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AmbiguousSessionError);
    const error = caught as AmbiguousSessionError;
    expect(error.matches.map((match) => match.id).sort()).toEqual([
      '20240101-000000-aaaaaa',
      '20240101-000000-aabbbb',
    ]);
    expect(error.message).toContain('"20240101" is ambiguous');
    expect(error.message).toContain('20240101-000000-aaaaaa');
    expect(error.message).toContain('20240101-000000-aabbbb');
  });

  it("searches other projects' folders when this workspace has no match", () => {
    const found = findSession(root, workspace, '20240109');
    expect(found).toMatchObject({ id: '20240109-000000-ffffff', workspace: otherWorkspace });
    expect(found?.path).toBe(path.join(sessionsDir(root, otherWorkspace), '20240109-000000-ffffff.jsonl'));
  });

  it('prefers a match in this workspace over matches in other projects', () => {
    makeSession('20240101-000000-aabbbb-elsewhere', { ws: otherWorkspace });
    expect(findSession(root, workspace, '20240101-000000-aab')?.workspace).toBe(workspace);
    expect(findSession(root, otherWorkspace, '20240101-000000-aab')?.workspace).toBe(otherWorkspace);
  });

  it('reports ambiguity across other projects too', () => {
    makeSession('20240301-000000-aaaaaa', { ws: otherWorkspace });
    makeSession('20240301-000000-bbbbbb', { ws: '/projects/gamma' });
    expect(() => findSession(root, workspace, '202403')).toThrow(AmbiguousSessionError);
  });

  it('returns undefined when nothing matches', () => {
    expect(findSession(root, workspace, 'nope')).toBeUndefined();
    expect(findSession(root, workspace, '')).toBeUndefined();
    expect(findSession(path.join(root, 'missing'), workspace, 'x')).toBeUndefined();
  });
});

describe('sessions kept by older versions', () => {
  it('are found in the shared folder for their exact workspace only', () => {
    const dashed = '/projects/a-b';
    const nested = '/projects/a/b';
    expect(sessionsDir(root, dashed)).not.toBe(sessionsDir(root, nested));
    expect(legacySessionsDir(root, dashed)).toBe(legacySessionsDir(root, nested));
    const legacy = legacySessionsDir(root, dashed);
    fs.mkdirSync(legacy, { recursive: true });
    for (const [id, ws] of [
      ['20240101-000000-aaaaaa', dashed],
      ['20240102-000000-bbbbbb', nested],
    ]) {
      fs.writeFileSync(
        path.join(legacy, `${id}.jsonl`),
        `{"type":"session_start","id":"${id}","workspace":"${ws}","meta":{}}\n`,
      );
    }
    makeSession('20240103-000000-cccccc', { ws: dashed });
    expect(listSessions({ documentsRoot: root, workspace: dashed }).map((s) => s.id)).toEqual([
      '20240103-000000-cccccc',
      '20240101-000000-aaaaaa',
    ]);
    expect(listSessions({ documentsRoot: root, workspace: nested }).map((s) => s.id)).toEqual([
      '20240102-000000-bbbbbb',
    ]);
    expect(findSession(root, nested, '20240102')?.workspace).toBe(nested);
  });
});
