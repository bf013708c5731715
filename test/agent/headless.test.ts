import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { latheAsync } from '../support/cli.js';
import { FakeModelServer, type ScriptedTurn } from '../support/fake_model_server.js';
import { closeFakeServers, runHeadless } from '../support/headless_run.js';
import { forwardFrom, freePort, TEST_CERT_PATH } from '../support/ports.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await closeFakeServers();
});

function repo(files: Record<string, string> = {}): string {
  return writeTree(files, 'lathe-repo-');
}

function run(dir: string, turns: ScriptedTurn[], args: string[] = [], model = 'anthropic/claude-sonnet-4-5') {
  return runHeadless(dir, turns, args, { model });
}

describe('lathe -p (headless) against the fake model server', () => {
  it('runs a multi-step task: search, read, edit, complete', async () => {
    const dir = repo({
      'src/config.ts': 'export const VERSION = "1.0";\n',
      'src/other.ts': 'export const x = 1;\n',
    });
    const r = await run(
      dir,
      [
        {
          toolCalls: [
            { name: 'search_files', input: { regex: 'VERSION', output_mode: 'files_with_matches' } },
          ],
        },
        { toolCalls: [{ name: 'read_file', input: { path: 'src/config.ts' } }] },
        {
          toolCalls: [
            { name: 'edit_file', input: { path: 'src/config.ts', old_string: '"1.0"', new_string: '"2.0"' } },
          ],
        },
        { toolCalls: [{ name: 'attempt_completion', input: { result: 'Bumped the version to 2.0.' } }] },
      ],
      ['--approve', 'edit'],
    );
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({
      outcome: 'completed',
      result: 'Bumped the version to 2.0.',
      num_turns: 4,
    });
    expect(readFileSync(join(dir, 'src/config.ts'), 'utf8')).toBe('export const VERSION = "2.0";\n');
    expect(r.requests[1].toolResults[0].content).toBe('src/config.ts');
    expect(r.requests[3].toolResults[0].content).toMatch(/^Edited src\/config.ts/);
  });

  it('runs parallel read-only calls of one message at the same time', async () => {
    const dir = repo();
    const r = await run(
      dir,
      [
        {
          toolCalls: [
            { name: 'overflow_test', input: { chars: 10, delay_ms: 400 } },
            { name: 'overflow_test', input: { chars: 20, delay_ms: 400 } },
          ],
        },
        { text: 'Both done.' },
      ],
      ['--output-format', 'stream-json'],
    );
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const order = events
      .filter((e) => e.type === 'tool_start' || e.type === 'tool_result')
      .map((e) => e.type);
    // Both calls start before either finishes.
    expect(order).toEqual(['tool_start', 'tool_start', 'tool_result', 'tool_result']);
    expect(r.requests[1].toolResults.map((t) => t.content)).toEqual([
      'line 0\nlin',
      'line 0\nline 1\nline 2',
    ]);
  });

  it('denies an edit in Plan mode, and tells the model why', async () => {
    const dir = repo();
    const r = await run(
      dir,
      [
        { toolCalls: [{ name: 'write_to_file', input: { path: 'new.txt', content: 'x' } }] },
        { text: 'I could not write.' },
      ],
      ['--mode', 'plan', '--yolo'],
    );
    expect(existsSync(join(dir, 'new.txt'))).toBe(false);
    expect(r.requests[1].toolResults[0]).toMatchObject({ isError: true });
    expect(r.requests[1].toolResults[0].content).toMatch(/Plan mode/);
  });

  it('sends a working_respond followed by no tool call back with a reminder', async () => {
    const dir = repo({ 'a.txt': 'A' });
    const r = await run(dir, [
      { toolCalls: [{ name: 'working_respond', input: { message: 'Reading a.txt next.' } }] },
      { text: 'Now I will read it.' },
      { toolCalls: [{ name: 'read_file', input: { path: 'a.txt' } }] },
      { toolCalls: [{ name: 'attempt_completion', input: { result: 'Read it.' } }] },
    ]);
    expect(r.json).toMatchObject({ outcome: 'completed' });
    expect(r.requests[2].lastUserText).toMatch(/working_respond but made no tool call/);
  });

  it('answers malformed tool arguments with an error the model then corrects', async () => {
    const dir = repo({ 'a.txt': 'hello' });
    const r = await run(dir, [
      { toolCalls: [{ name: 'read_file', rawArguments: '{"path": "a.txt"' }] },
      { toolCalls: [{ name: 'read_file', input: { path: 'a.txt' } }] },
      { toolCalls: [{ name: 'attempt_completion', input: { result: 'ok' } }] },
    ]);
    expect(r.requests[1].toolResults[0]).toMatchObject({ isError: true });
    expect(r.requests[1].toolResults[0].content).toMatch(/not valid JSON/);
    expect(r.requests[2].toolResults[0].content).toBe('1\thello');
    expect(r.code).toBe(0);
  });

  it('stops the third identical call in a row and tells the model', async () => {
    const dir = repo({ 'a.txt': 'hello' });
    const same = { toolCalls: [{ name: 'read_file', input: { path: 'a.txt' } }] };
    const r = await run(dir, [same, same, same, { text: 'Giving up.' }]);
    expect(r.requests[3].toolResults[0].content).toMatch(/the same read_file call 3 times in a row/);
  });

  it('retries a 429 and an overloaded 529, then goes on', async () => {
    const dir = repo();
    const r = await run(dir, [
      { error: { status: 429, message: 'rate limited', retryAfterSeconds: 0 } },
      { error: { status: 529, type: 'overloaded_error', message: 'overloaded' } },
      { text: 'Hello.' },
    ]);
    expect(r.json).toMatchObject({ outcome: 'final_text', result: 'Hello.' });
    expect(r.requests).toHaveLength(3);
  });

  it('gives a clear one-line error when the key is missing', async () => {
    server = await FakeModelServer.start();
    const r = await latheAsync(['-p', 'hi', '--model', 'anthropic/claude-sonnet-4-5'], {
      cwd: repo(),
      env: { LATHE_HOME: tempDir(), ANTHROPIC_API_KEY: '', ANTHROPIC_BASE_URL: server.url },
    });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(/^lathe: ANTHROPIC_API_KEY is not set/);
  });

  it('gives a clear one-line error for an unreachable base URL', async () => {
    const port = await freePort();
    const r = await latheAsync(
      ['-p', 'hi', '--model', 'openai-compatible/some-model', '--base-url', `http://127.0.0.1:${port}/v1`],
      {
        cwd: repo(),
        env: { LATHE_HOME: tempDir() },
      },
    );
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      `lathe: cannot reach the model endpoint http://127.0.0.1:${port} (ECONNREFUSED): check the base URL`,
    );
  });

  /** `lathe -p hi` with the model's endpoint at `baseUrl`. */
  const hiThrough = (baseUrl: string, env: NodeJS.ProcessEnv = {}) =>
    latheAsync(['-p', 'hi', '--model', 'anthropic/claude-sonnet-4-5', '--base-url', baseUrl], {
      cwd: repo(),
      env: { LATHE_HOME: tempDir(), ANTHROPIC_API_KEY: 'test-key', ...env },
    });

  it('says what is wrong with a base URL on a port fetch refuses (as browsers do)', async () => {
    // fetch fails a port of the Fetch standard's list at once, without connecting: nothing need listen.
    const r = await hiThrough('http://127.0.0.1:6000/v1');
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      'lathe: cannot reach the model endpoint http://127.0.0.1:6000: fetch never connects to that port (a port such as 1, 9 or 6000 that browsers block too); use another port',
    );
  });

  it('talks to an https endpoint whose certificate NODE_EXTRA_CA_CERTS trusts', async () => {
    server = await FakeModelServer.start({ turns: [{ text: 'Hello over TLS.' }] });
    const tls = await forwardFrom([0], Number(new URL(server.url).port), { tls: true });
    try {
      const r = await hiThrough(`https://localhost:${tls.port}/v1`, { NODE_EXTRA_CA_CERTS: TEST_CERT_PATH });
      expect(r.stderr).toBe('');
      expect(r.stdout).toContain('Hello over TLS.');
    } finally {
      await tls.close();
    }
  });

  it('answers a question headless with "no user is present" unless --answers supplies one', async () => {
    const dir = repo();
    const answers = join(dir, 'answers.json');
    writeFileSync(answers, JSON.stringify(['blue']));
    const ask = {
      toolCalls: [
        { name: 'ask_followup_question', input: { question: 'Which colour?', options: ['red', 'blue'] } },
      ],
    };
    const plain = await run(dir, [ask, { text: 'ok' }]);
    expect(plain.requests[1].toolResults[0].content).toMatch(/No user is present/);
    const answered = await run(dir, [ask, { text: 'ok' }], ['--answers', answers]);
    expect(answered.requests[1].toolResults[0].content).toBe('The user answered: blue');
  });

  it('gives the final answer through structured_output with --json-schema, validated', async () => {
    const dir = repo();
    const schema = join(dir, 'schema.json');
    writeFileSync(
      schema,
      JSON.stringify({ type: 'object', properties: { count: { type: 'number' } }, required: ['count'] }),
    );
    const r = await run(
      dir,
      [
        { toolCalls: [{ name: 'structured_output', input: { output: { count: 'three' } } }] },
        { toolCalls: [{ name: 'structured_output', input: { output: { count: 3 } } }] },
      ],
      ['--json-schema', schema],
    );
    expect(r.requests[1].toolResults[0].content).toMatch(/does not match the schema/);
    expect(r.json).toMatchObject({ outcome: 'completed', result: '{"count":3}' });
    expect(r.json.structured_output).toEqual({ count: 3 });
  });

  it('says in one line when the provider does not know the model', async () => {
    const dir = repo();
    const r = await run(dir, [
      { error: { status: 404, message: 'model: claude-nonexistent not found', type: 'not_found_error' } },
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      'lathe: the provider does not know the model anthropic/claude-sonnet-4-5, or the base URL is wrong (404: model: claude-nonexistent not found)',
    );
  });

  it('takes the prompt from standard input', async () => {
    server = await FakeModelServer.start({ turns: [{ text: 'Read you.' }] });
    const r = await latheAsync(['-p', '--model', 'anthropic/claude-sonnet-4-5'], {
      cwd: repo(),
      input: 'the prompt from stdin',
      env: { LATHE_HOME: tempDir(), ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'k' },
    });
    expect(r.stdout).toBe('Read you.\n');
    expect(server.requests[0].lastUserText).toBe('the prompt from stdin');
  });

  it('an interrupt (SIGINT) ends the run with exit 130 and a complete session log', async () => {
    const dir = repo();
    const home = tempDir();
    server = await FakeModelServer.start({ turns: [{ hang: true }] });
    const s = server;
    const r = await latheAsync(
      ['-p', 'wait', '--model', 'anthropic/claude-sonnet-4-5', '--output-format', 'json'],
      {
        cwd: dir,
        env: { LATHE_HOME: home, ANTHROPIC_BASE_URL: s.url, ANTHROPIC_API_KEY: 'k' },
        onSpawn: (child) => {
          const timer = setInterval(() => {
            if (s.requests.some((q) => q.kind === 'model')) {
              clearInterval(timer);
              child.kill('SIGINT');
            }
          }, 10);
        },
      },
    );
    expect(r.code).toBe(130);
    expect(JSON.parse(r.stdout)).toMatchObject({ outcome: 'aborted' });
    const list = await latheAsync(['sessions', '--json'], { cwd: dir, env: { LATHE_HOME: home } });
    const [session] = JSON.parse(list.stdout);
    const shown = await latheAsync(['sessions', 'export', session.id, '--format', 'jsonl'], {
      cwd: dir,
      env: { LATHE_HOME: home },
    });
    const events = shown.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events.at(-1)).toMatchObject({ type: 'session_end', reason: 'aborted' });
  });

  it('stops at --max-turns with a non-zero exit', async () => {
    const dir = repo({ 'a.txt': 'a', 'b.txt': 'b' });
    const r = await run(
      dir,
      [
        { toolCalls: [{ name: 'read_file', input: { path: 'a.txt' } }] },
        { toolCalls: [{ name: 'read_file', input: { path: 'b.txt' } }] },
      ],
      ['--max-turns', '2'],
    );
    expect(r.code).toBe(2);
    expect(r.json).toMatchObject({ outcome: 'max_turns' });
  });
});
