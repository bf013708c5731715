import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { notificationSequence, terminalNotification } from '../../src/tools/assistant/notifier.js';
import { findOnPath } from '../../src/util/find_on_path.js';
import { LATHE_BIN, lathe } from '../support/cli.js';
import { closeFakeServers, runHeadless, streamEvents } from '../support/headless_run.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';
import { disposeAll, runtimeWith } from '../tasks/helpers.js';
import { type AppUnderTest, renderApp } from '../tui/support/app_harness.js';

let app: AppUnderTest | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
  await closeFakeServers();
  await disposeAll();
});

// Found before PATH is narrowed for the run under test.
const SCRIPT = findOnPath(['script']) ?? 'script';
const SETSID = findOnPath(['setsid']) ?? 'setsid';

const names = (features: string[]) => runtimeWith(features).pool.map((t) => t.name);
const env = () => ({ LATHE_HOME: tempDir('lathe-home-'), LATHE_FEATURES: '' });

/** A notify-send that records its arguments, one per line, in `log`. */
function fakeNotifySend(exitCode = 0): { bin: string; log: string } {
  const bin = tempDir('bin-');
  const log = join(bin, 'calls.log');
  writeFileSync(
    join(bin, 'notify-send'),
    `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a" >> '${log}'; done\nexit ${exitCode}\n`,
  );
  chmodSync(join(bin, 'notify-send'), 0o755);
  return { bin, log };
}

/** `lathe tool push_notification` on a pseudo-terminal (util-linux `script`): what the terminal received. */
function notifyOnTerminal(extraEnv: Record<string, string>) {
  const input = JSON.stringify({ title: 'Build done', body: 'All 12 tests pass' });
  // stderr aside: a PATH without git adds lathe's warning that checkpoints are off.
  const command = `'${process.execPath}' '${LATHE_BIN}' tool push_notification --feature assistant --input '${input}' 2>/dev/null`;
  const r = spawnSync(SCRIPT, ['-qec', command, '/dev/null'], {
    encoding: 'utf8',
    env: { ...process.env, ...env(), SHELL: '/bin/sh', TMUX: '', TERM: 'xterm-256color', ...extraEnv },
  });
  return { code: r.status, terminal: r.stdout };
}

describe('the assistant tools are offered with the assistant feature', () => {
  it('brief, send_user_file and push_notification', () => {
    expect(names(['assistant'])).toEqual(
      expect.arrayContaining(['brief', 'send_user_file', 'push_notification']),
    );
    expect(names([])).not.toContain('brief');
    expect(names([])).not.toContain('send_user_file');
    expect(names([])).not.toContain('push_notification');
  });
});

describe('brief', () => {
  it('switches concise mode for the runtime and says whether it changed', async () => {
    const rt = runtimeWith(['assistant']);
    expect((await rt.runTool('brief', { on: true })).text).toBe(
      'Brief mode is now on: keep every reply short.',
    );
    expect(rt.brief.on).toBe(true);
    expect((await rt.runTool('brief', { on: true })).text).toBe(
      'Brief mode was already on: keep every reply short.',
    );
    await rt.runTool('brief', { on: false });
    expect(rt.brief.on).toBe(false);
  });

  it('through lathe tool', () => {
    const r = lathe(
      ['tool', 'brief', '--feature', 'assistant', '--input', '{"on":true}', '--cwd', tempDir()],
      {
        env: env(),
      },
    );
    expect(r).toMatchObject({ code: 0, stdout: 'Brief mode is now on: keep every reply short.\n' });
  });

  it('in lathe -p: the next request’s system prompt asks for short replies, and the run reports it', async () => {
    const r = await runHeadless(
      tempDir(),
      [{ toolCalls: [{ name: 'brief', input: { on: true } }] }, { text: 'Done.' }],
      ['--feature', 'assistant', '--output-format', 'stream-json'],
    );
    expect(r.code).toBe(0);
    const [first, second] = r.requests.map((q) => q.systemText ?? '');
    expect(first).not.toContain('Brief mode is on');
    expect(second).toContain('Brief mode is on');
    expect(streamEvents(r.stdout)).toContainEqual({ type: 'brief', on: true });
  });

  it('in the terminal UI: a notice and "brief" on the status line', async () => {
    app = await renderApp([{ toolCalls: [{ name: 'brief', input: { on: true } }] }, { text: 'Short.' }], {
      features: ['assistant'],
    });
    await app.submit('be terse');
    const frame = await app.waitFor('Short.');
    expect(frame).toContain('Brief mode on: replies are kept short');
    expect(frame.trimEnd().split('\n').at(-1)).toMatch(/ · brief · /);
  });
});

describe('send_user_file', () => {
  it('offers an existing file with its full path and caption', async () => {
    const rt = runtimeWith(['assistant']);
    writeFileSync(join(rt.cwd, 'report.md'), '# Report\n');
    const r = await rt.runTool('send_user_file', { path: 'report.md', caption: 'The weekly report' });
    expect(r.isError).toBe(false);
    expect(r.text).toBe(
      `Sent the user report.md (9 B): ${join(rt.workspace, 'report.md')} — The weekly report`,
    );
  });

  it('refuses a missing file or a folder, and a file a deny rule closes', async () => {
    const rt = runtimeWith(['assistant'], { settings: { permissions: { deny: ['read_file(**/.env)'] } } });
    mkdirSync(join(rt.cwd, 'out'));
    writeFileSync(join(rt.cwd, '.env'), 'TOKEN=1\n');
    expect((await rt.runTool('send_user_file', { path: 'gone.md' })).text).toMatch(/^gone.md does not exist/);
    expect((await rt.runTool('send_user_file', { path: 'out' })).text).toMatch(
      /^out is a folder, not a file/,
    );
    const denied = await rt.runTool('send_user_file', { path: '.env' });
    expect(denied.isError).toBe(true);
    expect(denied.text).toMatch(/^Not run: .*read_file\(\*\*\/\.env\)/);
  });

  it('through lathe tool', () => {
    const dir = writeTree({ 'chart.svg': '<svg/>' });
    const r = lathe(
      ['tool', 'send_user_file', '--feature', 'assistant', '--input', '{"path":"chart.svg"}', '--cwd', dir],
      {
        env: env(),
      },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Sent the user chart\.svg \(6 B\): \/.*\/chart\.svg\n$/);
  });

  it('in lathe -p: the file is listed in the result and in the events', async () => {
    const dir = writeTree({ 'summary.txt': 'all good\n' });
    const r = await runHeadless(
      dir,
      [
        { toolCalls: [{ name: 'send_user_file', input: { path: 'summary.txt', caption: 'Summary' } }] },
        { text: 'Sent.' },
      ],
      ['--feature', 'assistant', '--output-format', 'stream-json'],
    );
    expect(r.code).toBe(0);
    expect(r.requests[1].toolResults[0].content).toMatch(
      /^Sent the user summary\.txt \(9 B\): .*summary\.txt — Summary$/,
    );
    const event = streamEvents(r.stdout).find((e) => e.type === 'user_file');
    expect(event).toMatchObject({ path: 'summary.txt', bytes: 9, caption: 'Summary' });
    expect(readFileSync(String(event?.absolute_path), 'utf8')).toBe('all good\n');
  });

  it('in the terminal UI: a line with the file’s full path', async () => {
    app = await renderApp(
      [
        { toolCalls: [{ name: 'send_user_file', input: { path: 'notes.md', caption: 'Notes' } }] },
        { text: 'Here.' },
      ],
      { features: ['assistant'], files: { 'notes.md': 'n\n' } },
    );
    await app.submit('send me the notes');
    const frame = await app.waitFor('Here.');
    expect(frame).toMatch(/File for you: \/\S*notes\.md \(2 bytes\) — Notes/);
  });
});

describe('push_notification', () => {
  it('knows which terminals show OSC 9 and OSC 777, and that multiplexers pass neither', () => {
    expect(terminalNotification({ TERM_PROGRAM: 'iTerm.app' })).toBe('osc9');
    expect(terminalNotification({ TERM: 'xterm-kitty' })).toBe('osc9');
    expect(terminalNotification({ WT_SESSION: 'x' })).toBe('osc9');
    expect(terminalNotification({ TERM: 'foot' })).toBe('osc777');
    expect(terminalNotification({ TERM: 'rxvt-unicode-256color' })).toBe('osc777');
    expect(
      terminalNotification({ TERM_PROGRAM: 'WezTerm', TMUX: '/tmp/tmux-0/default,1,0' }),
    ).toBeUndefined();
    expect(terminalNotification({ TERM: 'xterm-256color' })).toBeUndefined();
  });

  it('keeps control characters out of the escape sequences', () => {
    expect(notificationSequence('osc9', 'Done\u001b]0;x', 'ok\u0007bye')).toBe(
      '\u001b]9;Done ]0;x: ok bye\u0007',
    );
    expect(notificationSequence('osc777', 'a;b', 'c;d')).toBe('\u001b]777;notify;a,b;c;d\u001b\\');
    expect(notificationSequence('osc9', '3 tests', 'failed')).toBe('\u001b]9;lathe 3 tests: failed\u0007');
  });

  it('writes OSC 9 to a terminal that shows it (lathe tool on a pseudo-terminal)', () => {
    const r = notifyOnTerminal({ TERM_PROGRAM: 'WezTerm' });
    expect(r.code).toBe(0);
    expect(r.terminal).toContain('\u001b]9;Build done: All 12 tests pass\u0007');
    expect(r.terminal).toContain('Notified the user through the terminal (OSC 9).');
  });

  it('writes OSC 777 to foot', () => {
    const r = notifyOnTerminal({ TERM: 'foot' });
    expect(r.terminal).toContain('\u001b]777;notify;Build done;All 12 tests pass\u001b\\');
  });

  it('uses notify-send in a terminal with no notification sequence', () => {
    const { bin, log } = fakeNotifySend();
    const r = notifyOnTerminal({ PATH: bin });
    expect(r.code).toBe(0);
    expect(r.terminal).toContain('Notified the user through notify-send.');
    expect(r.terminal).not.toContain('\u0007');
    expect(readFileSync(log, 'utf8')).toBe('--app-name=lathe\n--\nBuild done\nAll 12 tests pass\n');
  });

  it('rings the bell when notify-send is missing or fails', () => {
    const missing = notifyOnTerminal({ PATH: tempDir('bin-') });
    expect(missing.terminal).toMatch(/^\u0007Notified the user through the terminal bell\./);
    const { bin } = fakeNotifySend(1);
    const failing = notifyOnTerminal({ PATH: bin });
    expect(failing.terminal).toMatch(
      /^\u0007Notified the user through the terminal bell \(not through notify-send: exit code 1\)\./,
    );
  });

  it('is an error the model can act on with no terminal and no notify-send', () => {
    // setsid: a session of its own, with no controlling terminal, whatever this test runs in.
    const input = '{"title":"T","body":"B"}';
    const r = spawnSync(
      SETSID,
      [
        '-w',
        process.execPath,
        LATHE_BIN,
        'tool',
        'push_notification',
        '--feature',
        'assistant',
        '--input',
        input,
        '--cwd',
        tempDir(),
      ],
      {
        encoding: 'utf8',
        env: { ...process.env, ...env(), PATH: tempDir('bin-'), TERM: 'dumb' },
      },
    );
    expect(r.status).toBe(1);
    expect(r.stdout).toBe(
      'The notification could not be delivered (the terminal bell: no terminal). Say it in your reply instead.\n',
    );
  });

  it('in lathe -p: notify-send is run and the run reports the notification', async () => {
    const { bin, log } = fakeNotifySend();
    const r = await runHeadless(
      tempDir(),
      [
        { toolCalls: [{ name: 'push_notification', input: { title: 'Ready', body: 'Review the diff' } }] },
        { text: 'ok' },
      ],
      ['--feature', 'assistant', '--output-format', 'stream-json'],
      // A terminal with no notification sequence of its own, whichever this test runs in.
      { env: { PATH: `${bin}:${process.env.PATH}`, TERM: 'xterm-256color', TERM_PROGRAM: '', TMUX: '' } },
    );
    expect(r.code).toBe(0);
    expect(r.requests[1].toolResults[0].content).toBe('Notified the user through notify-send.');
    expect(streamEvents(r.stdout)).toContainEqual({
      type: 'notification',
      title: 'Ready',
      body: 'Review the diff',
    });
    expect(readFileSync(log, 'utf8')).toBe('--app-name=lathe\n--\nReady\nReview the diff\n');
  });
});
