import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTool } from '../../src/tool/build_tool.js';
import { executeToolCalls } from '../../src/tool/executor.js';
import { NO_FACTS } from '../../src/tool/facts.js';
import { mayChangeFiles } from '../../src/tool/may_change_files.js';
import { findTool } from '../../src/tool/pool.js';
import { latheFacts } from '../../src/tool/static_facts.js';
import { builtinTools } from '../../src/tools/index.js';
import { disposePlanRuntimes, planRuntime } from '../support/plan_runtime.js';
import { testContext } from '../support/runtime_fixtures.js';

afterEach(disposePlanRuntimes);

const builtin = (name: string) => findTool(builtinTools(), name)!;

describe('lathe’s own facts default to the flags they refine', () => {
  const plain = buildTool({
    name: 'plain',
    inputSchema: z.object({ x: z.number() }),
    description: 'Reads.',
    availability: { profiles: ['standard'] },
    kind: 'read',
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    async call() {
      return { text: 'ok' };
    },
  });

  it('Plan mode allows what is read-only, what is concurrency-safe runs in parallel', () => {
    expect(latheFacts(plain)).toEqual({
      planModeAllowed: true,
      runsInParallel: true,
      destroysExisting: false,
      refusedInStrictPlan: false,
    });
  });

  it('a declared function is decided per call, and listed as dynamic', () => {
    const picky = buildTool({
      ...plain,
      name: 'picky',
      planModeAllowed: (input: { x: number }) => input.x > 0,
    });
    expect(picky.planModeAllowed({ x: 1 }, NO_FACTS)).toBe(true);
    expect(picky.planModeAllowed({ x: 0 }, NO_FACTS)).toBe(false);
    expect(latheFacts(picky).planModeAllowed).toBe('dynamic');
  });
});

describe('Plan mode runs the tools that change only lathe’s own state', () => {
  it('brief, sleep and task_output run unasked, though the contract calls them not read-only', async () => {
    const rt = planRuntime({ env: { NODE_ENV: 'test' }, features: ['assistant', 'proactive'] });
    for (const name of ['brief', 'sleep', 'task_output'])
      expect(builtin(name).isReadOnly({} as never, NO_FACTS)).toBe(false);
    const brief = await rt.runTool('brief', { on: true });
    expect(brief.permissionDenial, brief.text).toBeUndefined();
    const slept = await rt.runTool('sleep', { seconds: 0.1 });
    expect(slept.text).toBe('Waited 0.1 s.');
    const output = await rt.runTool('task_output', { id: 'task_none' });
    expect(output.permissionDenial).toBeUndefined();
    expect(output.text).toMatch(/^No task task_none/);
  });

  it('testing_permission, read-only by the contract, still asks as the edit it stands for', async () => {
    const rt = planRuntime({ env: { NODE_ENV: 'test' } });
    const r = await rt.runTool('testing_permission', { path: 'x' });
    expect(r.text).toMatch(/Plan mode/);
  });

  it('a preview takes no checkpoint; the change it previews does', () => {
    const tool = builtin('replace_text');
    expect(mayChangeFiles(tool, { glob: '*', find: 'a', replace: 'b', preview: true }, NO_FACTS)).toBe(false);
    expect(mayChangeFiles(tool, { glob: '*', find: 'a', replace: 'b' }, NO_FACTS)).toBe(true);
  });
});

describe('the parallel batch follows runsInParallel, not the flag', () => {
  it('subagents join it, though the contract does not call them concurrency-safe', () => {
    for (const name of ['use_subagent', 'use_subagents']) {
      expect(builtin(name).isConcurrencySafe({} as never, NO_FACTS)).toBe(false);
      expect(builtin(name).runsInParallel({} as never, NO_FACTS)).toBe(true);
    }
  });

  it('two calls of a tool that runs in parallel are running at once', async () => {
    let started = 0;
    let bothStarted!: () => void;
    const together = new Promise<void>((resolve) => {
      bothStarted = resolve;
    });
    const side = buildTool({
      name: 'side_by_side',
      inputSchema: z.object({}),
      description: 'Waits for its sibling.',
      availability: { profiles: ['standard'] },
      kind: 'other',
      runsInParallel: true,
      async call() {
        if (++started === 2) bothStarted();
        // Run one at a time, the first call would wait here for ever.
        await together;
        return { text: 'met' };
      },
    });
    const results = await executeToolCalls(
      [
        { id: '1', name: 'side_by_side', input: {} },
        { id: '2', name: 'side_by_side', input: {} },
      ],
      { pool: [side], context: testContext() },
    );
    expect(results.map((r) => r.result.text)).toEqual(['met', 'met']);
  });
});

describe('Strict Plan Mode', () => {
  it('refuses exactly seed 000’s four tools and seed 001’s two file editors', () => {
    const refused = builtinTools()
      .filter((tool) => tool.refusedInStrictPlan)
      .map((tool) => tool.name)
      .sort();
    expect(refused).toEqual([
      'apply_patch',
      'edit_file',
      'new_rule',
      'notebook_edit',
      'replace_in_file',
      'write_to_file',
    ]);
  });
});
