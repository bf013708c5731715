import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Runtime } from '../../src/runtime/create_runtime.js';
import { NO_FACTS } from '../../src/tool/facts.js';
import { findTool } from '../../src/tool/pool.js';
import type { ToolCall } from '../../src/tool/run_call.js';
import type { ToolResult } from '../../src/tool/types.js';
import { builtinTools } from '../../src/tools/index.js';
import { testNeeds } from '../support/required_programs.js';
import { disposeAll, eventually, processesCarrying, runtimeWith, uniqueToken } from './helpers.js';

afterEach(disposeAll);

/** Runs one call as the agent would, with an abort signal and a progress sink. */
async function runWith(
  rt: Runtime,
  call: Omit<ToolCall, 'id'>,
  options: { signal?: AbortSignal; progress?: (line: string) => void } = {},
): Promise<ToolResult> {
  const execution = rt.createExecution({ signal: options.signal, progress: options.progress });
  execution.add({ id: 'call_1', ...call });
  execution.close();
  for await (const { result } of execution.results()) return result;
  throw new Error('no result');
}

describe('sleep', () => {
  it('is offered with the proactive feature; not read-only by the contract, allowed in Plan mode', () => {
    expect(runtimeWith(['proactive']).pool.map((t) => t.name)).toContain('sleep');
    expect(runtimeWith([]).pool.map((t) => t.name)).not.toContain('sleep');
    const tool = findTool(builtinTools(), 'sleep')!;
    expect([
      tool.isReadOnly({ seconds: 1 }, NO_FACTS),
      tool.isConcurrencySafe({ seconds: 1 }, NO_FACTS),
      tool.planModeAllowed({ seconds: 1 }, NO_FACTS),
    ]).toEqual([false, false, true]);
  });

  it('waits the time asked', async () => {
    const rt = runtimeWith(['proactive']);
    expect((await rt.runTool('sleep', { seconds: 0.2 })).text).toBe('Waited 0.2 s.');
  });

  it('is interrupted by the user', async () => {
    const rt = runtimeWith(['proactive']);
    const controller = new AbortController();
    const pending = runWith(rt, { name: 'sleep', input: { seconds: 600 } }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    const r = await pending;
    expect(r.text).toMatch(/^Interrupted after \d+\.\d s\.$|was cancelled/);
  });
});

describe('monitor', () => {
  it('is offered with the monitor feature; allowed in Plan mode for a file or a read-only command', async () => {
    expect(runtimeWith(['monitor']).pool.map((t) => t.name)).toContain('monitor');
    const tool = findTool(builtinTools(), 'monitor')!;
    // Never read-only by the contract; Plan mode's allowance is lathe's own fact.
    expect(tool.isReadOnly({ path: 'app.log' }, NO_FACTS)).toBe(false);
    expect(tool.planModeAllowed({ path: 'app.log' }, NO_FACTS)).toBe(true);
    expect(tool.isConcurrencySafe({ path: 'app.log' }, NO_FACTS)).toBe(false);
    const facts = await tool.parseFacts!({ command: 'rm -rf build' });
    expect(tool.planModeAllowed({ command: 'rm -rf build' }, facts)).toBe(false);
  });

  testNeeds('bwrap')("streams a command's lines as progress and returns them when it ends", async () => {
    const rt = runtimeWith(['monitor']);
    const progress: string[] = [];
    const r = await runWith(
      rt,
      { name: 'monitor', input: { command: 'for i in 1 2 3; do echo "line $i"; done; printf tail' } },
      { progress: (line) => progress.push(line) },
    );
    expect(progress).toEqual(['line 1', 'line 2', 'line 3', 'tail']);
    expect(r.text).toMatch(
      /^Monitored `.*` for \d+\.\d s: 4 lines. The command ended \(exit code 0\)\.\nline 1\nline 2\nline 3\ntail\nWhole output: /,
    );
  });

  testNeeds('bwrap')(
    'stops at the first line matching `until` and ends the command, tree and all',
    async () => {
      const rt = runtimeWith(['monitor']);
      const token = uniqueToken('monitor');
      const r = await rt.runTool('monitor', {
        command: `export MARK=${token}; bash -c 'sleep 60; echo child' & for i in $(seq 1 100); do echo "step $i"; sleep 0.05; done`,
        until: 'step 3$',
      });
      expect(r.text).toMatch(
        /: 3 lines. A line matched \/step 3\$\/. The command was stopped.\nMatching line: step 3\n/,
      );
      expect(await eventually(() => processesCarrying(token).length === 0)).toBe(true);
    },
  );

  it('follows the lines appended to a log file until a pattern appears', async () => {
    const rt = runtimeWith(['monitor']);
    const log = join(rt.cwd, 'app.log');
    writeFileSync(log, 'old line\n');
    const seen: string[] = [];
    const pending = runWith(
      rt,
      { name: 'monitor', input: { path: 'app.log', until: 'READY', timeout: 30 } },
      { progress: (line) => seen.push(line) },
    );
    // Lines are appended until the monitor shows one: only then is it surely following.
    const writer = setInterval(() => appendFileSync(log, 'starting\n'), 50);
    await eventually(() => seen.length > 0);
    clearInterval(writer);
    appendFileSync(log, 'server READY on 8080\n');
    const r = await pending;
    expect(r.text).toMatch(
      /^Monitored app.log for .* A line matched \/READY\/\.\nMatching line: server READY on 8080/,
    );
    expect(r.text).not.toMatch(/old line/);
  });

  it('reads the lines already there with from_start, and stops at the timeout', async () => {
    const rt = runtimeWith(['monitor']);
    writeFileSync(join(rt.cwd, 'app.log'), 'a\nb\n');
    const r = await rt.runTool('monitor', { path: 'app.log', from_start: true, until: 'never', timeout: 1 });
    expect(r.text).toMatch(/: 2 lines. Stopped after 1 s \(timeout\) with no match.\na\nb$/);
  });

  testNeeds('bwrap')('keeps only the last lines of a long stream', async () => {
    const rt = runtimeWith(['monitor']);
    const r = await rt.runTool('monitor', { command: 'seq 1 5000' });
    expect(r.text).toMatch(/: 5000 lines. The command ended \(exit code 0\).\nThe last 200 lines:\n4801\n/);
    expect(r.text.length).toBeLessThan(10_000);
  });

  it('stops a catastrophic `until` pattern with a clear error instead of hanging', async () => {
    const rt = runtimeWith(['monitor']);
    writeFileSync(join(rt.cwd, 'app.log'), `${'a'.repeat(40)}!\n`);
    const r = await rt.runTool('monitor', {
      path: 'app.log',
      from_start: true,
      until: '^(a+)+$',
      timeout: 60,
    });
    expect(r).toMatchObject({
      isError: true,
      text: expect.stringMatching(
        /^Stopped monitoring app\.log: until: the regex took too long .* simplify it/,
      ),
    });
  }, 60_000);

  testNeeds('bwrap')('refuses unclear input', async () => {
    const rt = runtimeWith(['monitor']);
    expect((await rt.runTool('monitor', { command: 'ls', path: 'x' })).text).toMatch(
      /either command .* or path/,
    );
    expect((await rt.runTool('monitor', { path: 'x', until: '(' })).text).toMatch(
      /not a valid regular expression/,
    );
  });
});
