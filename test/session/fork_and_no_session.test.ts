import * as fs from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lathe } from '../support/cli.js';
import { closeFakeServers, runHeadless } from '../support/headless_run.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

// The built `lathe -p` against the fake model server: --no-session writes no session, --fork
// starts a new one from an old one's history and leaves the old one as it was.

afterEach(closeFakeServers);

/** Every file under `dir`, relative to it (none when it does not exist). */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((name) =>
    fs.statSync(join(dir, name)).isFile(),
  );
}

function sessionsOf(dir: string, home: string): Array<{ id: string; path: string }> {
  const listed = lathe(['sessions', 'list', '--json'], { cwd: dir, env: { LATHE_HOME: home } });
  return JSON.parse(listed.stdout);
}

describe('--no-session', () => {
  it('runs, with a tool call, and writes nothing into the sessions folder', async () => {
    const dir = writeTree({ 'a.txt': 'hello' });
    const run = await runHeadless(
      dir,
      [{ toolCalls: [{ name: 'read_file', input: { path: 'a.txt' } }] }, { text: 'It says hello.' }],
      ['--no-session'],
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.json.result).toContain('It says hello.');
    expect(filesUnder(join(run.home, 'sessions'))).toEqual([]);
    expect(sessionsOf(dir, run.home)).toEqual([]);
  });
});

describe('--fork', () => {
  it('starts a new session from the old one’s history; the old one is left unchanged', async () => {
    const dir = writeTree({ 'a.txt': 'hello' });
    const home = tempDir('lathe-home-');
    const first = await runHeadless(dir, [{ text: 'The secret word is heron.' }], [], { home });
    expect(first.code).toBe(0);
    const [old] = sessionsOf(dir, home);
    const before = fs.readFileSync(old.path, 'utf8');

    const fork = await runHeadless(dir, [{ text: 'You said heron.' }], ['--fork', old.id.slice(0, 15)], {
      home,
    });
    expect(fork.stderr).toBe('');
    expect(fork.code).toBe(0);
    expect(JSON.stringify(fork.requests[0].body.messages)).toContain('The secret word is heron.');
    expect(fs.readFileSync(old.path, 'utf8')).toBe(before);

    const sessions = sessionsOf(dir, home);
    expect(sessions).toHaveLength(2);
    const forked = sessions.find((s) => s.id !== old.id)!;
    expect(fork.json.session_id).toBe(forked.id);
    const [start, ...rest] = fs
      .readFileSync(forked.path, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(start).toMatchObject({ type: 'session_start', id: forked.id, meta: { forkedFrom: old.id } });
    expect(rest.map((event) => event.seq)).toEqual(rest.map((_, index) => index + 1));
    expect(JSON.stringify(rest)).toContain('The secret word is heron.');
    expect(JSON.stringify(rest)).toContain('You said heron.');
  });

  it.each([
    [['--fork', '20990101-000000-abcdef'], 'no session matches "20990101-000000-abcdef"'],
    [['--fork', 'x', '--no-session'], '--fork and --no-session do not go together'],
    [['--fork', 'x', '--continue'], '--fork and --continue do not go together'],
    [['--no-session', '--resume', 'x'], '--no-session and --resume do not go together'],
  ])('%j is refused in one line with exit code 2, writing nothing', async (args, message) => {
    const dir = writeTree({ 'a.txt': 'hello' });
    const run = await runHeadless(dir, [{ text: 'unused' }], args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.requests).toHaveLength(0);
    expect(filesUnder(join(run.home, 'sessions'))).toEqual([]);
  });
});
