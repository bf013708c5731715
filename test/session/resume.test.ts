import * as fs from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { latheAsync } from '../support/cli.js';
import { FakeModelServer, type ScriptedTurn } from '../support/fake_model_server.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

// The built `lathe` against the fake model server: sessions resumed, refused, listed and shown.

const MODEL = 'anthropic/claude-sonnet-4-5';
let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(turns: ScriptedTurn[]): Promise<FakeModelServer> {
  server = await FakeModelServer.start({ turns });
  return server;
}

const env = (home: string) => ({
  LATHE_HOME: home,
  ANTHROPIC_BASE_URL: server!.url,
  ANTHROPIC_API_KEY: 'k',
  LATHE_RETRY_BASE_MS: '1',
  NODE_ENV: 'test',
});

const run = (args: string[], cwd: string, home: string) => latheAsync(args, { cwd, env: env(home) });
const modelRequests = () => server!.requests.filter((q) => q.kind === 'model');

async function onlySession(
  cwd: string,
  home: string,
): Promise<{ id: string; path: string; workspace: string }> {
  const listed = JSON.parse((await run(['sessions', 'list', '--json'], cwd, home)).stdout);
  expect(listed).toHaveLength(1);
  return listed[0];
}

type Block = { type: string; id?: string; tool_use_id?: string; content?: unknown };
type Message = { role: string; content: string | Block[] };

/** Every tool_use is answered in the next message, and every tool_result answers one just before. */
function expectPairedCalls(messages: Message[]): void {
  messages.forEach((message, index) => {
    const blocks = typeof message.content === 'string' ? [] : message.content;
    const uses = blocks.filter((b) => b.type === 'tool_use').map((b) => b.id);
    const next = messages[index + 1];
    const answered = (typeof next?.content === 'string' ? [] : (next?.content ?? []))
      .filter((b) => b.type === 'tool_result')
      .map((b) => b.tool_use_id);
    expect(answered.slice(0, uses.length)).toEqual(uses);
    const previous = messages[index - 1];
    const called = (typeof previous?.content === 'string' ? [] : (previous?.content ?? []))
      .filter((b) => b.type === 'tool_use')
      .map((b) => b.id);
    for (const block of blocks.filter((b) => b.type === 'tool_result'))
      expect(called).toContain(block.tool_use_id);
  });
}

describe('a damaged session log', () => {
  it.each([
    ['the tool results', '"role":"tool"', 'Interrupted: this call did not finish'],
    ['the tool call', '"type":"tool-call"', undefined],
  ])('resumes with a warning when the record of %s is damaged', async (_what, marker, resultText) => {
    const dir = writeTree({ 'a.txt': 'hello' });
    const home = tempDir();
    await start([
      { toolCalls: [{ name: 'read_file', input: { path: 'a.txt' } }] },
      { text: 'It says hello.' },
    ]);
    expect((await run(['-p', 'read a.txt', '--model', MODEL], dir, home)).code).toBe(0);
    const session = await onlySession(dir, home);
    const lines = fs.readFileSync(session.path, 'utf8').split('\n');
    const damaged = lines.findIndex(
      (line) => line.startsWith('{"type":"model_message"') && line.includes(marker),
    );
    expect(damaged).toBeGreaterThan(0);
    lines[damaged] = lines[damaged].slice(0, 40);
    fs.writeFileSync(session.path, lines.join('\n'));

    server!.enqueue({ text: 'Going on.' });
    const resumed = await run(['-p', 'go on', '--resume', session.id], dir, home);
    expect(resumed).toMatchObject({ code: 0, stdout: 'Going on.\n' });
    expect(resumed.stderr).toMatch(
      /^lathe: warning: session log: skipped a damaged record at byte \d+ \(invalid JSON/,
    );
    const messages = modelRequests().at(-1)!.body.messages as Message[];
    expectPairedCalls(messages);
    expect(messages[0].role).toBe('user');
    expect(JSON.stringify(messages)).toContain('It says hello.');
    const results = JSON.stringify(
      messages
        .flatMap((m) => (typeof m.content === 'string' ? [] : m.content))
        .filter((b) => b.type === 'tool_result'),
    );
    if (resultText) expect(results).toContain(resultText);
    else expect(results).toBe('[]');
  });
});

describe('resuming', () => {
  it('goes on with the session’s model, profile and mode when no flags name them', async () => {
    const dir = writeTree({});
    const home = tempDir();
    await start([{ text: 'A plan.' }, { text: 'More plan.' }]);
    const first = await run(
      ['-p', 'plan it', '--model', MODEL, '--profile', 'lite', '--mode', 'plan'],
      dir,
      home,
    );
    expect(first.code).toBe(0);
    const second = await run(['-p', 'again', '--continue'], dir, home);
    expect(second).toMatchObject({ code: 0, stdout: 'More plan.\n', stderr: '' });
    const [before, after] = modelRequests();
    expect(after.model).toBe('claude-sonnet-4-5');
    expect(after.toolNames).toEqual(before.toolNames);
    const session = await onlySession(dir, home);
    const resumedRecord = fs
      .readFileSync(session.path, 'utf8')
      .split('\n')
      .find((line) => line.startsWith('{"type":"session_resumed"'));
    expect(JSON.parse(resumedRecord!).meta).toMatchObject({ model: MODEL, profile: 'lite', mode: 'plan' });
  });

  it('refuses a session of another folder, naming the command that resumes it', async () => {
    const home = tempDir();
    const first = writeTree({});
    const second = writeTree({});
    await start([{ text: 'Hi.' }]);
    await run(['-p', 'hello', '--model', MODEL], first, home);
    const { id } = await onlySession(first, home);
    const elsewhere = await run(['-p', 'go on', '--model', MODEL, '--resume', id], second, home);
    expect(elsewhere).toMatchObject({
      code: 2,
      stderr: `lathe: session ${id} belongs to ${first}; run: cd ${first} && lathe --resume ${id}\n`,
    });
    expect(modelRequests()).toHaveLength(1);
  });

  it('--continue passes over a run that failed before any reply', async () => {
    const dir = writeTree({});
    const home = tempDir();
    await start([
      { text: 'First answer.' },
      { error: { status: 401, message: 'invalid x-api-key' } },
      { text: 'Again.' },
    ]);
    expect((await run(['-p', 'first question', '--model', MODEL], dir, home)).code).toBe(0);
    const failed = await run(['-p', 'doomed question', '--model', MODEL], dir, home);
    expect(failed.code).not.toBe(0);
    const listed = await run(['sessions', 'list'], dir, home);
    expect(listed.stdout).toMatch(/\(no reply\) doomed question/);
    const continued = await run(['-p', 'follow-up', '--continue'], dir, home);
    expect(continued).toMatchObject({ code: 0, stdout: 'Again.\n' });
    const sent = JSON.stringify(modelRequests().at(-1)!.body.messages);
    expect(sent).toContain('first question');
    expect(sent).not.toContain('doomed question');
  });
});

describe('where sessions are kept', () => {
  it('gives /x/a-b and /x/a/b folders of their own', async () => {
    const base = tempDir();
    const home = tempDir();
    const dashed = join(base, 'a-b');
    const nested = join(base, 'a', 'b');
    fs.mkdirSync(dashed, { recursive: true });
    fs.mkdirSync(nested, { recursive: true });
    await start([{ text: 'One.' }, { text: 'Two.' }]);
    await run(['-p', 'in a-b', '--model', MODEL], dashed, home);
    await run(['-p', 'in a/b', '--model', MODEL], nested, home);
    expect((await onlySession(dashed, home)).workspace).toBe(dashed);
    expect((await onlySession(nested, home)).workspace).toBe(nested);
  });

  it('lathe tool leaves no session folder behind', async () => {
    const dir = writeTree({});
    const home = tempDir();
    const called = await latheAsync(
      ['tool', 'execute_command', '--sandbox', 'off', '--input', '{"command":"echo hi"}'],
      { cwd: dir, env: { LATHE_HOME: home } },
    );
    expect(called).toMatchObject({ code: 0 });
    expect(called.stdout).toContain('hi');
    expect(fs.readdirSync(home)).not.toContain('sessions');
  });
});

describe('lathe sessions show', () => {
  it('prints tool results, marks errors, and leaves out bookkeeping events', async () => {
    const dir = writeTree({ 'a.txt': 'hello' });
    const home = tempDir();
    await start([
      {
        toolCalls: [
          { name: 'read_file', input: { path: 'a.txt' } },
          { name: 'read_file', input: { path: 'missing.txt' } },
        ],
      },
      { text: 'One of them is missing.' },
    ]);
    await run(['-p', 'read both', '--model', MODEL], dir, home);
    const { id } = await onlySession(dir, home);
    const shown = await run(['sessions', 'show', id], dir, home);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/\*\*result\*\* `read_file`\n\n```\n1\thello\n```/);
    expect(shown.stdout).toMatch(/\*\*error\*\* from `read_file`\n\n```\n.*missing\.txt/);
    expect(shown.stdout).toContain('One of them is missing.');
    expect(shown.stdout).not.toMatch(/request_start|tool_start|model_message|^- done$/m);
  });
});
