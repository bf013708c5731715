import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { latheAsync } from '../support/cli.js';
import { FakeModelServer, type ScriptedTurn } from '../support/fake_model_server.js';
import { tempDir } from '../support/runtime_fixtures.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(dir: string, turns: ScriptedTurn[], args: string[] = [], home = tempDir('lathe-home-')) {
  server = await FakeModelServer.start({ turns });
  const r = await latheAsync(
    ['-p', 'task', '--model', 'anthropic/claude-sonnet-4-5', '--output-format', 'stream-json', ...args],
    {
      cwd: dir,
      env: { LATHE_HOME: home, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'k' },
    },
  );
  const events = r.stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  return { ...r, events, home, requests: server.requests.filter((q) => q.kind === 'model') };
}

function answers(dir: string, list: string[]): string {
  const path = join(dir, '..', `answers-${Date.now()}.json`);
  writeFileSync(path, JSON.stringify(list));
  return path;
}

describe('Plan/Act and the conversation tools', () => {
  it('an approved plan switches Plan to Act, and the edit then runs', async () => {
    const dir = tempDir();
    const r = await run(
      dir,
      [
        { toolCalls: [{ name: 'make_plan', input: { plan: '1. Write hello.txt' } }] },
        { toolCalls: [{ name: 'write_to_file', input: { path: 'hello.txt', content: 'hi\n' } }] },
        { toolCalls: [{ name: 'attempt_completion', input: { result: 'Wrote it.' } }] },
      ],
      ['--mode', 'plan', '--approve', 'edit', '--answers', answers(dir, ['yes'])],
    );
    expect(r.events.find((e) => e.type === 'plan')).toMatchObject({ markdown: '1. Write hello.txt' });
    expect(r.events.find((e) => e.type === 'mode_change')).toMatchObject({ mode: 'act' });
    expect(r.requests[1].toolResults[0].content).toMatch(/approved and lathe left Plan mode \(now act\)/);
    expect(readFileSync(join(dir, 'hello.txt'), 'utf8')).toBe('hi\n');
    // Back in Act mode, enter_plan_mode is offered again: deferred, it is listed in tool_search's definition.
    expect(JSON.stringify(r.requests[1].body)).toContain('- enter_plan_mode:');
  });

  it('a plan not approved keeps Plan mode and passes the reason on', async () => {
    const dir = tempDir();
    const r = await run(
      dir,
      [{ toolCalls: [{ name: 'make_plan', input: { plan: 'Delete everything' } }] }, { text: 'Understood.' }],
      ['--mode', 'plan', '--answers', answers(dir, ['no: too risky'])],
    );
    expect(r.requests[1].toolResults[0].content).toBe(
      'The plan was not approved. They said: too risky Refine it, or ask what to change.',
    );
    expect(r.requests[1].toolNames).toContain('exit_plan_mode');
  });

  it('enter_plan_mode switches to Plan mode for the next request', async () => {
    const dir = tempDir();
    const r = await run(dir, [
      { toolCalls: [{ name: 'enter_plan_mode', input: {} }] },
      { text: 'Planning.' },
    ]);
    expect(r.events.find((e) => e.type === 'mode_change')).toMatchObject({ mode: 'plan' });
    expect(r.requests[1].systemText).toMatch(/You are in Plan mode/);
    expect(r.requests[1].toolNames).toContain('exit_plan_mode');
  });

  it('phase_report with requires_acknowledgment stops the run when the user says no', async () => {
    const dir = tempDir();
    const r = await run(
      dir,
      [
        {
          toolCalls: [
            {
              name: 'phase_report',
              input: { phase: 'Parser', summary: 'Done.', requires_acknowledgment: true },
            },
          ],
        },
        { text: 'never asked for' },
      ],
      ['--answers', answers(dir, ['no'])],
    );
    expect(r.code).toBe(2);
    expect(r.events.find((e) => e.type === 'phase_report')).toMatchObject({ phase: 'Parser' });
    expect(r.events.at(-1)).toMatchObject({ type: 'result', outcome: 'stopped' });
    expect(r.requests).toHaveLength(1);
  });

  it('status_update (the old name) still runs phase_report', async () => {
    const dir = tempDir();
    const r = await run(dir, [
      { toolCalls: [{ name: 'status_update', input: { phase: 'One', summary: 'Done.' } }] },
      { text: 'ok' },
    ]);
    expect(r.requests[1].toolResults[0].content).toBe('Reported.');
  });

  it('generate_report is shown and saved with the session', async () => {
    const dir = tempDir();
    const r = await run(dir, [
      {
        toolCalls: [
          {
            name: 'generate_report',
            input: {
              title: 'Audit',
              summary: 'All good.',
              sections: [{ heading: 'Details', body: 'Nothing found.' }],
            },
          },
        ],
      },
      { text: 'Reported.' },
    ]);
    const report = r.events.find((e) => e.type === 'report');
    expect(report.markdown).toBe('# Audit\n\nAll good.\n\n## Details\n\nNothing found.');
    expect(existsSync(report.path)).toBe(true);
    expect(report.path.startsWith(r.home)).toBe(true);
  });

  it('qna_respond ends the run with the answer', async () => {
    const dir = tempDir();
    const r = await run(dir, [{ toolCalls: [{ name: 'qna_respond', input: { answer: '42.' } }] }]);
    expect(r.events.at(-1)).toMatchObject({ type: 'result', outcome: 'answered', result: '42.' });
    expect(r.code).toBe(0);
  });

  it('compacts the conversation near the context window and says so', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, '.agents'));
    writeFileSync(join(dir, '.agents', 'settings.json'), JSON.stringify({ contextWindow: 1_000 }));
    writeFileSync(join(dir, 'a.txt'), 'A');
    const r = await run(dir, [
      {
        toolCalls: [{ name: 'read_file', input: { path: 'a.txt' } }],
        usage: { inputTokens: 900, outputTokens: 10 },
      },
      { text: 'Summary: read a.txt, it holds A.' },
      { toolCalls: [{ name: 'attempt_completion', input: { result: 'done' } }] },
    ]);
    expect(r.events.find((e) => e.type === 'compaction')).toBeDefined();
    expect(r.requests[1].toolNames).toEqual([]);
    const after = r.requests[2].body.messages;
    expect(after).toHaveLength(1);
    expect(JSON.stringify(after[0])).toContain('The conversation was compacted');
    expect(JSON.stringify(after[0])).toContain('1. task');
    expect(r.events.at(-1)).toMatchObject({ outcome: 'completed' });
    const session = readdirSync(join(r.home, 'sessions'))[0];
    expect(readdirSync(join(r.home, 'sessions', session)).some((f) => f.endsWith('.jsonl'))).toBe(true);
  });

  it('includes AGENTS.md files, nearest first, in the system prompt', async () => {
    const root = tempDir();
    mkdirSync(join(root, '.git'));
    mkdirSync(join(root, 'pkg'));
    writeFileSync(join(root, 'AGENTS.md'), 'Root rule: use tabs.');
    writeFileSync(join(root, 'pkg', 'AGENTS.md'), 'Package rule: no semicolons.');
    const r = await run(join(root, 'pkg'), [{ text: 'ok' }]);
    const system = r.requests[0].systemText ?? '';
    expect(system.indexOf('Package rule')).toBeGreaterThan(0);
    expect(system.indexOf('Root rule')).toBeGreaterThan(system.indexOf('Package rule'));
  });
});
