import { afterEach, describe, expect, it } from 'vitest';
import { latheAsync } from '../support/cli.js';
import type { ScriptedTurn } from '../support/fake_model_server.js';
import { closeFakeServers, runHeadless, streamEvents } from '../support/headless_run.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

afterEach(closeFakeServers);

/** `rounds` requests that each read a line of a.txt, then a final answer. */
const reads = (rounds: number): ScriptedTurn[] => [
  ...Array.from({ length: rounds }, (_, i) => ({
    toolCalls: [{ name: 'read_file', input: { path: 'a.txt', offset: i + 1, limit: 1 } }],
  })),
  { text: 'done' },
];
const workspace = () => writeTree({ 'a.txt': 'line\n'.repeat(40) }, 'lathe-repo-');

describe('lathe -p: the limits of a run, told in every output format', () => {
  it('json: subtype error_max_turns (outcome max_turns), its limit, and exit code 2', async () => {
    const r = await runHeadless(workspace(), reads(10), ['--max-turns', '3']);
    expect(r.code).toBe(2);
    expect(r.json).toMatchObject({
      subtype: 'error_max_turns',
      outcome: 'max_turns',
      is_error: true,
      num_turns: 3,
      limit: { name: 'turns', used: 3, max: 3 },
      result: 'Stopped after 3 model requests: the limit of --max-turns 3.',
    });
  });

  it('text: the limit on standard error; stream-json: the limit in the last line', async () => {
    const text = await runHeadless(workspace(), reads(10), ['--max-turns', '2', '--output-format', 'text']);
    expect(text.code).toBe(2);
    expect(text.stdout).toBe('');
    expect(text.stderr).toContain('Stopped after 2 model requests: the limit of --max-turns 2.\n');
    const stream = await runHeadless(workspace(), reads(10), [
      '--max-turns',
      '2',
      '--output-format',
      'stream-json',
    ]);
    expect(streamEvents(stream.stdout).at(-1)).toMatchObject({
      type: 'result',
      outcome: 'max_turns',
      limit: { name: 'turns', used: 2, max: 2 },
    });
  });

  it('--max-cost: the response that spends it runs no call, and the result says so', async () => {
    const r = await runHeadless(
      workspace(),
      [
        {
          toolCalls: [{ name: 'read_file', input: { path: 'a.txt', limit: 1 } }],
          usage: { inputTokens: 20_000, outputTokens: 1_000 },
        },
        { text: 'never' },
      ],
      ['--max-cost', '0.05'],
    );
    expect(r.code).toBe(2);
    expect(r.json).toMatchObject({
      subtype: 'error_max_budget_usd',
      outcome: 'max_cost',
      limit: { name: 'cost', max: 0.05 },
      num_turns: 1,
    });
    expect(r.json.result).toBe('Stopped: the cost budget is spent ($0.0750 of $0.0500; --max-cost).');
    expect(r.requests).toHaveLength(1);
  });

  it('refuses a budget that is not a positive number, in one line', async () => {
    const r = await latheAsync(['-p', 'x', '--max-cost', 'lots'], { cwd: tempDir() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--max-cost wants a positive number of dollars, not "lots"/);
  });

  it('prints no MaxListenersExceededWarning over 30 model requests', async () => {
    const r = await runHeadless(workspace(), reads(29));
    expect(r.code).toBe(0);
    expect(r.json.num_turns).toBe(30);
    expect(r.stderr).not.toMatch(/MaxListenersExceededWarning/);
  });

  it('--help tells the limits: none on requests by default, and the spend budgets', async () => {
    const help = (await latheAsync(['--help'], { cwd: tempDir() })).stdout.replace(/\s+/g, ' ');
    expect(help).toMatch(/--max-turns <n> stop after this many model requests \(default: no limit;/);
    expect(help).toMatch(/--max-tokens <n> stop before the input \+ output tokens reach this/);
    expect(help).toMatch(/--max-cost <dollars> stop before the cost/);
  });
});
