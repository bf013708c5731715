import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { latheAsync } from '../support/cli.js';
import { FakeModelServer, type ScriptedTurn } from '../support/fake_model_server.js';
import { fakeModelEnv } from '../support/headless_run.js';
import { tempDir } from '../support/runtime_fixtures.js';

// ctx_inspect, snip, `#` lasting instructions and compaction in `lathe -p`, the built command
// against the fake model server (which counts each request's tokens itself, from the wire body).

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const call = (name: string, input: unknown = {}): ScriptedTurn => ({ toolCalls: [{ name, input }] });

/** A workspace whose settings are `settings`, and a LATHE_HOME whose settings are `home`. */
function setup(settings: Record<string, unknown> = {}, home: Record<string, unknown> = {}) {
  const dir = tempDir('lathe-ws-');
  mkdirSync(join(dir, '.agents'));
  writeFileSync(join(dir, '.agents', 'settings.json'), JSON.stringify(settings));
  const homeDir = tempDir('lathe-home-');
  mkdirSync(join(homeDir, 'settings'));
  writeFileSync(join(homeDir, 'settings', 'settings.json'), JSON.stringify(home));
  return { dir, home: homeDir };
}

async function run(
  turns: ScriptedTurn[],
  options: {
    prompt?: string;
    args?: string[];
    settings?: Record<string, unknown>;
    home?: Record<string, unknown>;
  } = {},
) {
  const { dir, home } = setup(options.settings, options.home);
  server = await FakeModelServer.start({ turns, countTokens: true });
  const result = await latheAsync(
    [
      '-p',
      options.prompt ?? 'do the task',
      '--model',
      'anthropic/claude-sonnet-4-5',
      '--output-format',
      'json',
      ...(options.args ?? []),
    ],
    { cwd: dir, env: fakeModelEnv(server, home) },
  );
  const requests = server.requests.filter((r) => r.kind === 'model');
  return { ...result, dir, home, requests };
}

/** The total a ctx_inspect result states. */
const statedTotal = (text: string) => Number(/^Context: ([\d,]+) of/.exec(text)?.[1].replace(/,/g, ''));

describe('ctx_inspect', () => {
  it("totals within 1% of the request's tokens as the server counted them (lathe's own count)", async () => {
    // The server reports a fixed 100 input tokens, far from the truth: lathe does not scale by it.
    const usage = { inputTokens: 100, outputTokens: 5 };
    const r = await run(
      [
        { ...call('list_files', { path: '.' }), usage },
        { ...call('ctx_inspect'), usage },
        { text: 'Done.', usage },
      ],
      { args: ['--feature', 'context_collapse'] },
    );
    expect(r.code).toBe(0);
    const result = r.requests[2].toolResults[0].content;
    expect(result).toMatch(/too far off to scale by/);
    for (const part of ['system prompt', 'tools', 'rules', 'skills list', 'messages', 'tool results'])
      expect(result).toContain(`${part}: `);
    // The call ran while the request that asked for it was the whole context.
    const counted = r.requests[1].tokens!;
    expect(counted).toBeGreaterThan(1_000);
    expect(Math.abs(statedTotal(result) - counted) / counted).toBeLessThan(0.01);
  });

  it('scales to the provider count of the last request and still matches the request it measures', async () => {
    const r = await run([call('list_files', { path: '.' }), call('ctx_inspect'), { text: 'Done.' }], {
      args: ['--feature', 'context_collapse'],
    });
    expect(r.code).toBe(0);
    const result = r.requests[2].toolResults[0].content;
    expect(result).toMatch(/scaled ×\d\.\d{3} to the provider's count/);
    const counted = r.requests[1].tokens!;
    expect(Math.abs(statedTotal(result) - counted) / counted).toBeLessThan(0.01);
  });

  it('through lathe tool, says there is no session to inspect', async () => {
    const { dir, home } = setup();
    const r = await latheAsync(['tool', 'ctx_inspect', '--input', '{}', '--feature', 'context_collapse'], {
      cwd: dir,
      env: { LATHE_HOME: home },
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/there is none here/);
  });
});

describe('snip', () => {
  it('cuts a tool result to a one-line stub naming the session log; the next request carries the stub', async () => {
    const big = Array.from({ length: 800 }, (_, i) => `line ${i}: value ${(i * 7919) % 1000}`).join('\n');
    const { dir, home } = setup();
    writeFileSync(join(dir, 'big.txt'), big);
    server = await FakeModelServer.start({
      countTokens: true,
      turns: [
        call('read_file', { path: 'big.txt' }),
        { toolCalls: [{ name: 'snip', input: { ids: ['toolu_1'] } }] },
        { text: 'Done.' },
      ],
    });
    const r = await latheAsync(
      ['-p', 'do the task', '--model', 'anthropic/claude-sonnet-4-5', '--feature', 'history_snip'],
      { cwd: dir, env: fakeModelEnv(server, home) },
    );
    expect(r.code).toBe(0);
    const requests = server.requests.filter((q) => q.kind === 'model');
    expect(JSON.stringify(requests[1].body)).toContain('line 500: value');
    expect(requests[2].toolResults.at(-1)?.content).toMatch(/^Cut 1 item\(s\), freeing about [\d,]+ tokens/);
    const sent = JSON.stringify(requests[2].body);
    expect(sent).not.toContain('line 500: value');
    expect(sent).toMatch(
      /\[snipped the result of read_file \(call toolu_1\), [\d,]+ tokens; the full text is in the session log: lathe sessions show \d{8}-/,
    );
    expect(requests[2].tokens!).toBeLessThan(requests[1].tokens! - 1_000);
  });

  it('refuses an unknown id, and the latest prompt, with a line the model can act on', async () => {
    const r = await run(
      [call('snip', { ids: ['toolu_9'] }), call('snip', { ids: ['msg-1'] }), { text: 'Done.' }],
      { args: ['--feature', 'history_snip'] },
    );
    expect(r.requests[1].toolResults[0].content).toBe(
      'No message or tool result has the id "toolu_9" (ctx_inspect lists them).',
    );
    expect(r.requests[2].toolResults[0].content).toMatch(/msg-1 is the latest prompt or comes after it/);
  });

  it('through lathe tool, says there is no session to cut', async () => {
    const { dir, home } = setup();
    const r = await latheAsync(
      ['tool', 'snip', '--input', '{"ids":["msg-1"]}', '--feature', 'history_snip'],
      { cwd: dir, env: { LATHE_HOME: home } },
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/there is none here/);
  });
});

describe('compaction', () => {
  const MARKED = [
    '# Always indent with tabs.',
    '# Never edit files under vendor/.',
    '# Commit messages start with a verb.',
    '# Run npm test before saying you are done.',
    '# Answer in British English.',
  ];

  it('keeps five marked instructions and the latest prompt word for word', async () => {
    const summariser: ScriptedTurn = {
      respond: (req) =>
        req.systemText?.startsWith('Summarise this coding session')
          ? { text: 'Summary: listed the folder.' }
          : { error: { status: 500, message: 'expected the summary request' } },
    };
    const prompt = `${MARKED.join('\n')}\nNow list the folder.`;
    const r = await run(
      [
        { ...call('list_files', { path: '.' }), usage: { inputTokens: 9_000, outputTokens: 10 } },
        summariser,
        { text: 'Done.' },
      ],
      { prompt, settings: { contextWindow: 10_000 } },
    );
    expect(r.code).toBe(0);
    expect(r.requests).toHaveLength(3);
    const after = JSON.stringify(r.requests[2].body.messages);
    expect(after).toContain('The conversation was compacted');
    expect(after).toContain(JSON.stringify(prompt).slice(1, -1));
    for (const line of MARKED) expect(after).toContain(line);
  });

  it('compacts at the configured threshold, running PreCompact hooks, and not below it', async () => {
    const settings = { contextWindow: 10_000, context: { compactAt: 0.5 } };
    const summary: ScriptedTurn = { text: 'Summary.' };
    const below = await run(
      [
        { ...call('list_files', { path: '.' }), usage: { inputTokens: 3_000, outputTokens: 10 } },
        { text: 'Done.' },
      ],
      { settings },
    );
    expect(below.requests).toHaveLength(2);
    expect(JSON.stringify(below.requests[1].body)).not.toContain('The conversation was compacted');
    await server?.close();

    const marker = (home: string) => join(home, 'precompact.json');
    const hooks = (home: string) => ({
      PreCompact: [{ matcher: '', hooks: [{ type: 'command', command: `cat > ${marker(home)}` }] }],
    });
    const { dir, home } = setup(settings);
    writeFileSync(join(home, 'settings', 'settings.json'), JSON.stringify({ hooks: hooks(home) }));
    server = await FakeModelServer.start({
      countTokens: true,
      turns: [
        { ...call('list_files', { path: '.' }), usage: { inputTokens: 5_000, outputTokens: 0 } },
        summary,
        { text: 'Done.' },
      ],
    });
    const at = await latheAsync(['-p', 'do the task', '--model', 'anthropic/claude-sonnet-4-5'], {
      cwd: dir,
      env: fakeModelEnv(server, home),
    });
    expect(at.code).toBe(0);
    const requests = server.requests.filter((q) => q.kind === 'model');
    expect(requests[1].systemText).toMatch(/^Summarise this coding session/);
    expect(existsSync(marker(home))).toBe(true);
    expect(JSON.parse(readFileSync(marker(home), 'utf8'))).toMatchObject({
      hook_event_name: 'PreCompact',
      trigger: 'auto',
    });
  });

  it('refuses a compactAt outside (0, 1] with one line naming the key', async () => {
    const { dir, home } = setup({ context: { compactAt: 85 } });
    const r = await latheAsync(['tool', 'list_files', '--input', '{}'], {
      cwd: dir,
      env: { LATHE_HOME: home },
    });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(
      /"context\.compactAt" must be a share of the context window above 0 and at most 1/,
    );
  });
});
