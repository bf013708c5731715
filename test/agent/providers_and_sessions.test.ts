import { afterEach, describe, expect, it } from 'vitest';
import { latheAsync } from '../support/cli.js';
import { FakeModelServer, type Protocol } from '../support/fake_model_server.js';
import { fakeModelEnv } from '../support/headless_run.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function repo(files: Record<string, string> = {}): string {
  return writeTree(files, 'lathe-repo-');
}

const env = fakeModelEnv;

describe('each provider’s wire format', () => {
  const cases: Array<[string, Protocol, string[]]> = [
    ['anthropic/claude-sonnet-4-5', 'anthropic', []],
    ['openai/gpt-5', 'openai-responses', []],
    ['openai-chat/gpt-4o', 'openai-chat', []],
    ['google/gemini-2.5-pro', 'gemini', []],
    ['openai-compatible/qwen2.5-coder', 'openai-chat', ['--base-url', 'BASE']],
    ['ollama/qwen2.5-coder', 'openai-chat', ['--base-url', 'BASE']],
  ];
  it.each(cases)('%s: a tool call, its result, a final answer', async (model, protocol, extra) => {
    const dir = repo({ 'a.txt': 'hello' });
    server = await FakeModelServer.start({
      turns: [{ toolCalls: [{ name: 'read_file', input: { path: 'a.txt' } }] }, { text: 'It says hello.' }],
    });
    const args = extra.map((a) => (a === 'BASE' ? server!.baseUrl('openai-chat') : a));
    const r = await latheAsync(['-p', 'read a.txt', '--model', model, ...args], {
      cwd: dir,
      env: env(server, tempDir()),
    });
    expect(r.stderr).toBe('');
    expect(r).toMatchObject({ code: 0, stdout: 'It says hello.\n' });
    const requests = server.requests.filter((q) => q.kind === 'model');
    expect(requests.map((q) => q.protocol)).toEqual([protocol, protocol]);
    expect(requests[0].toolNames).toContain('read_file');
    expect(requests[1].toolResults[0].content).toBe('1\thello');
  });
});

describe('models without native tool calling', () => {
  it('get the tools described in the prompt and call them in text', async () => {
    const dir = repo({ 'a.txt': 'hello' });
    server = await FakeModelServer.start({
      turns: [
        {
          text: 'Let me look.\n<tool_call>\n{"name": "read_file", "arguments": {"path": "a.txt"}}\n</tool_call>',
        },
        { text: 'It says hello.' },
      ],
    });
    const r = await latheAsync(
      ['-p', 'read a.txt', '--model', 'ollama/llama2', '--base-url', server.baseUrl('openai-chat')],
      {
        cwd: dir,
        env: env(server, tempDir()),
      },
    );
    expect(r).toMatchObject({ code: 0, stdout: 'It says hello.\n' });
    const [first, second] = server.requests.filter((q) => q.kind === 'model');
    expect(first.toolNames).toEqual([]);
    expect(first.systemText).toMatch(/<tool_call>/);
    expect(first.systemText).toMatch(/- read_file: /);
    expect(second.lastUserText).toBe('<tool_result name="read_file">\n1\thello\n</tool_result>');
  });
});

describe('sessions', () => {
  it('a killed run is resumed with --resume, with its earlier messages', async () => {
    const dir = repo({ 'a.txt': 'hello' });
    const home = tempDir();
    server = await FakeModelServer.start({
      turns: [{ toolCalls: [{ name: 'read_file', input: { path: 'a.txt' } }] }, { hang: true }],
    });
    const s = server;
    const killed = await latheAsync(['-p', 'read a.txt', '--model', 'anthropic/claude-sonnet-4-5'], {
      cwd: dir,
      env: env(s, home),
      onSpawn: (child) => {
        const timer = setInterval(() => {
          if (s.requests.filter((q) => q.kind === 'model').length >= 2) {
            clearInterval(timer);
            child.kill('SIGKILL');
          }
        }, 10);
      },
    });
    expect(killed.signal).toBe('SIGKILL');
    const list = await latheAsync(['sessions', 'list', '--json'], { cwd: dir, env: env(s, home) });
    const [session] = JSON.parse(list.stdout);
    expect(session.firstPrompt).toBe('read a.txt');

    s.enqueue({ text: 'Resumed: it says hello.' });
    const resumed = await latheAsync(
      ['-p', 'go on', '--model', 'anthropic/claude-sonnet-4-5', '--resume', session.id.slice(0, 17)],
      {
        cwd: dir,
        env: env(s, home),
      },
    );
    expect(resumed).toMatchObject({ code: 0, stdout: 'Resumed: it says hello.\n' });
    const last = s.requests.filter((q) => q.kind === 'model').pop()!;
    const messages = last.body.messages as Array<{ role: string; content: unknown }>;
    // Anthropic's format joins the tool results and the new prompt into one user message.
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(messages[2])).toContain('1\\thello');
    expect(last.lastUserText).toBe('go on');
  });

  it('--continue picks the latest session, and export writes Markdown', async () => {
    const dir = repo();
    const home = tempDir();
    server = await FakeModelServer.start({ turns: [{ text: 'First answer.' }, { text: 'Second answer.' }] });
    await latheAsync(['-p', 'first question', '--model', 'anthropic/claude-sonnet-4-5'], {
      cwd: dir,
      env: env(server, home),
    });
    const second = await latheAsync(
      ['-p', 'follow-up', '--model', 'anthropic/claude-sonnet-4-5', '--continue'],
      {
        cwd: dir,
        env: env(server, home),
      },
    );
    expect(second.stdout).toBe('Second answer.\n');
    const body = server.requests.filter((q) => q.kind === 'model')[1].body;
    expect(body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user']);
    const [session] = JSON.parse(
      (await latheAsync(['sessions', '--json'], { cwd: dir, env: env(server, home) })).stdout,
    );
    const md = await latheAsync(['sessions', 'export', session.id, '--format', 'md'], {
      cwd: dir,
      env: env(server, home),
    });
    expect(md.stdout).toMatch(/## User\n\nfirst question/);
    expect(md.stdout).toMatch(/## Assistant\n\nSecond answer./);
  });
});
