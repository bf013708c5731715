import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeFakeServers, runHeadless, streamEvents } from '../support/headless_run.js';
import { MISBEHAVING_SERVER } from '../support/mcp_servers/peers.js';
import { testNeeds } from '../support/required_programs.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

afterEach(closeFakeServers);

/** A LATHE_HOME holding these files under settings/ (user settings, MCP servers). */
function homeWith(settings: Record<string, unknown>): string {
  const home = tempDir('lathe-home-');
  mkdirSync(join(home, 'settings'), { recursive: true });
  for (const [name, value] of Object.entries(settings))
    writeFileSync(join(home, 'settings', name), JSON.stringify(value));
  return home;
}

const refusalLines = (stderr: string) =>
  stderr.split('\n').filter((line) => line.startsWith('lathe: refused:'));

/** Every key of a record, however deep, but inside `input` (a tool call's input is the model's data). */
function keysOf(value: unknown, path = ''): Array<{ key: string; path: string }> {
  if (Array.isArray(value)) return value.flatMap((item, i) => keysOf(item, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => [
    { key, path: `${path}.${key}` },
    ...(key === 'input' ? [] : keysOf(inner, `${path}.${key}`)),
  ]);
}

describe('headless output: refusals', () => {
  testNeeds('bwrap')(
    'lists every call permissions refused in permission_denials, with its tool, input and reason',
    async () => {
      const dir = writeTree({ 'build/out.js': 'x', 'secret.txt': 'hunter2', 'a.txt': 'A' }, 'lathe-repo-');
      const home = homeWith({ 'settings.json': { permissions: { deny: ['read_file(secret.txt)'] } } });
      const r = await runHeadless(
        dir,
        [
          { toolCalls: [{ name: 'execute_command', input: { command: 'rm -rf build' } }] },
          { toolCalls: [{ name: 'read_file', input: { path: 'secret.txt' } }] },
          { toolCalls: [{ name: 'read_file', input: { path: 'a.txt' } }] },
          { toolCalls: [{ name: 'attempt_completion', input: { result: 'Done what I could.' } }] },
        ],
        [],
        { home },
      );
      expect(r.code).toBe(0);
      expect(existsSync(join(dir, 'build/out.js'))).toBe(true);
      expect(r.json.permission_denials).toEqual([
        {
          tool: 'execute_command',
          call_id: expect.any(String),
          input: { command: 'rm -rf build' },
          reason: expect.stringMatching(/needs approval \(category executeAll\)/),
          category: 'executeAll',
          remedy: expect.stringMatching(/--approve executeAll/),
        },
        {
          tool: 'read_file',
          call_id: expect.any(String),
          input: { path: 'secret.txt' },
          reason: expect.stringMatching(/^denied by rule read_file\(secret\.txt\)/),
        },
      ]);
    },
  );

  testNeeds('bwrap')('writes each refusal as one line on stderr, without --verbose', async () => {
    const dir = writeTree({ 'build/out.js': 'x', 'secret.txt': 'hunter2' }, 'lathe-repo-');
    const home = homeWith({ 'settings.json': { permissions: { deny: ['read_file(secret.txt)'] } } });
    const r = await runHeadless(
      dir,
      [
        { toolCalls: [{ name: 'execute_command', input: { command: 'rm -rf build' } }] },
        { toolCalls: [{ name: 'read_file', input: { path: 'secret.txt' } }] },
        { text: 'Both were refused.' },
      ],
      ['--output-format', 'text'],
      { home },
    );
    expect(r.stdout).toBe('Both were refused.\n');
    const lines = refusalLines(r.stderr);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^lathe: refused: execute_command `rm -rf build` — needs approval \(category executeAll\).*; .*--approve executeAll/,
    );
    expect(lines[1]).toMatch(
      /^lathe: refused: read_file `secret\.txt` — denied by rule read_file\(secret\.txt\)/,
    );
    // Nothing else of the run is on stderr without --verbose.
    expect(r.stderr).not.toMatch(/→|✗/);
  });

  it('lists no denials when nothing was refused', async () => {
    const dir = writeTree({ 'a.txt': 'A' }, 'lathe-repo-');
    const r = await runHeadless(dir, [
      { toolCalls: [{ name: 'read_file', input: { path: 'a.txt' } }] },
      { text: 'Read it.' },
    ]);
    expect(r.json.permission_denials).toEqual([]);
    expect(refusalLines(r.stderr)).toEqual([]);
  });
});

describe('headless output: stream-json', () => {
  it('starts with an init record: session, model, folder, tools, MCP servers, permission mode', async () => {
    const dir = writeTree({ 'a.txt': 'A' }, 'lathe-repo-');
    const home = homeWith({
      'mcp_settings.json': {
        mcpServers: {
          probe: { command: process.execPath, args: [MISBEHAVING_SERVER] },
          broken: { command: join(tempDir(), 'no-such-server') },
        },
      },
    });
    const r = await runHeadless(
      dir,
      [{ text: 'Hi.' }],
      ['--output-format', 'stream-json', '--approve', 'edit'],
      {
        home,
      },
    );
    const events = streamEvents(r.stdout);
    const result = events.at(-1)!;
    expect(result.type).toBe('result');
    expect(events[0]).toMatchObject({
      type: 'system',
      subtype: 'init',
      session_id: result.session_id,
      model: 'anthropic/claude-sonnet-4-5',
      cwd: realpathSync(dir),
      profile: 'standard',
      mode: 'act',
      permission_mode: 'approve',
      approved_categories: ['edit'],
    });
    expect(events[0].tools).toEqual(
      expect.arrayContaining(['read_file', 'execute_command', 'attempt_completion']),
    );
    // The run waits for the servers to start, so each has its final state.
    expect(events[0].mcp_servers).toEqual([
      { name: 'probe', status: 'connected' },
      { name: 'broken', status: 'failed', error: expect.any(String) },
    ]);
  });

  it('says permission_mode "yolo" under --yolo and "default" without approvals', async () => {
    const dir = writeTree({}, 'lathe-repo-');
    const yolo = await runHeadless(dir, [{ text: 'Hi.' }], ['--output-format', 'stream-json', '--yolo']);
    expect(streamEvents(yolo.stdout)[0]).toMatchObject({ permission_mode: 'yolo', mcp_servers: [] });
    const plain = await runHeadless(dir, [{ text: 'Hi.' }], ['--output-format', 'stream-json']);
    expect(streamEvents(plain.stdout)[0]).toMatchObject({
      permission_mode: 'default',
      approved_categories: [],
    });
  });

  testNeeds('bwrap')('names every field of every event in snake_case', async () => {
    const dir = writeTree({ 'a.txt': 'A' }, 'lathe-repo-');
    const r = await runHeadless(
      dir,
      [
        { error: { status: 429, message: 'rate limited', retryAfterSeconds: 0 } },
        { toolCalls: [{ name: 'working_respond', input: { message: 'Reading a.txt next.' } }] },
        { text: 'Now I will read it.' },
        {
          toolCalls: [
            { name: 'read_file', input: { path: 'a.txt' } },
            { name: 'execute_command', input: { command: 'rm a.txt' } },
          ],
        },
        {
          toolCalls: [{ name: 'ask_followup_question', input: { question: 'Which?', options: ['x', 'y'] } }],
        },
        { toolCalls: [{ name: 'generate_report', input: { title: 'Findings', summary: 'One file.' } }] },
        { text: 'All done.', usage: { inputTokens: 90, outputTokens: 5, cachedInputTokens: 60 } },
      ],
      ['--output-format', 'stream-json'],
    );
    const events = streamEvents(r.stdout);
    const types = new Set(events.map((e) => e.type));
    for (const type of [
      'system',
      'user_message',
      'request_start',
      'retry',
      'text_delta',
      'assistant_text',
      'tool_call',
      'tool_start',
      'tool_result',
      'usage',
      'working',
      'notice',
      'question',
      'report',
      'result',
    ])
      expect(types, type).toContain(type);
    const camel = events.flatMap((e) =>
      keysOf(e).filter(({ key }) => !/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/.test(key)),
    );
    expect(camel).toEqual([]);
    // The refused call's result says so, in the same style.
    const refused = events.find((e) => e.type === 'tool_result' && e.name === 'execute_command');
    expect(refused).toMatchObject({ is_error: true, permission_denial: { category: 'executeAll' } });
  });

  it('reports usage with cache reads and writes in the result', async () => {
    const dir = writeTree({}, 'lathe-repo-');
    const r = await runHeadless(dir, [
      {
        toolCalls: [{ name: 'attempt_completion', input: { result: 'ok' } }],
        usage: { inputTokens: 350, outputTokens: 7, cachedInputTokens: 300, cacheWriteTokens: 40 },
      },
    ]);
    // Input tokens count every token the model read, cached ones too.
    expect(r.json.usage).toEqual({
      input_tokens: 350,
      output_tokens: 7,
      cache_read_input_tokens: 300,
      cache_creation_input_tokens: 40,
      // A run without child agents: nothing spent by children.
      children: {
        input_tokens: 0,
        output_tokens: 0,
        cache_read_input_tokens: 0,
        cache_creation_input_tokens: 0,
        cost_usd: null,
      },
    });
  });
});

describe('headless output: Claude Code subtypes and per-request usage', () => {
  it('says success with the finer outcome apart, and each usage event has its request and the totals', async () => {
    const dir = writeTree({ 'a.txt': 'A\n' }, 'lathe-repo-');
    const replies = [
      {
        toolCalls: [{ name: 'read_file', input: { path: 'a.txt' } }],
        usage: { inputTokens: 100, outputTokens: 10 },
      },
      {
        toolCalls: [{ name: 'attempt_completion', input: { result: 'ok' } }],
        usage: { inputTokens: 150, outputTokens: 5 },
      },
    ];
    const json = await runHeadless(dir, replies);
    expect(json.json).toMatchObject({ subtype: 'success', outcome: 'completed', is_error: false });
    const stream = await runHeadless(dir, replies, ['--output-format', 'stream-json']);
    const usages = streamEvents(stream.stdout).filter((e) => e.type === 'usage');
    expect(usages).toHaveLength(2);
    expect(usages[1]).toMatchObject({
      request_usage: { input_tokens: 150, output_tokens: 5 },
      total_usage: { input_tokens: 250, output_tokens: 15 },
    });
    expect(usages[1]).not.toHaveProperty('usage');
  });
});

describe('headless output: --json-schema', () => {
  it('puts the accepted object in structured_output of the stream-json result', async () => {
    const dir = writeTree({}, 'lathe-repo-');
    const schema = join(dir, 'schema.json');
    writeFileSync(schema, JSON.stringify({ type: 'object', properties: { files: { type: 'array' } } }));
    const r = await runHeadless(
      dir,
      [{ toolCalls: [{ name: 'structured_output', input: { output: { files: ['a.ts', 'b.ts'] } } }] }],
      ['--json-schema', schema, '--output-format', 'stream-json'],
    );
    const result = streamEvents(r.stdout).at(-1)!;
    expect(result).toMatchObject({ type: 'result', outcome: 'completed' });
    expect(result.structured_output).toEqual({ files: ['a.ts', 'b.ts'] });
  });

  it('gives structured_output null when the run ends without one', async () => {
    const dir = writeTree({}, 'lathe-repo-');
    const schema = join(dir, 'schema.json');
    writeFileSync(schema, JSON.stringify({ type: 'object' }));
    const r = await runHeadless(dir, [{ text: 'No structure.' }], ['--json-schema', schema]);
    expect(r.json).toMatchObject({ outcome: 'final_text', structured_output: null });
    const plain = await runHeadless(dir, [{ text: 'No schema.' }]);
    expect(plain.json).not.toHaveProperty('structured_output');
  });
});
