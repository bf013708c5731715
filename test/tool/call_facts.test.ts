import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../src/runtime/create_runtime.js';
import { parseCall } from '../../src/tool/run_call.js';
import type { CallFacts, ToolContext } from '../../src/tool/types.js';
import { testNeeds } from '../support/required_programs.js';
import { tempDir } from '../support/runtime_fixtures.js';

const made: Runtime[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((rt) => rt.dispose()));
});

/** A runtime where commands that only read run unasked and others would need a person. */
function runtime(): Runtime {
  const rt = createRuntime({ cwd: tempDir(), documentsRoot: tempDir('lathe-home-'), env: {} });
  made.push(rt);
  return rt;
}

async function parsed(
  rt: Runtime,
  name: string,
  input: unknown,
): Promise<{ input: unknown; facts: CallFacts }> {
  const tool = rt.pool.find((t) => t.name === name)!;
  const call = await parseCall(tool, input);
  if (!call.ok) throw new Error(call.message);
  return call;
}

/** What the permission engine says of a call, asked directly with the parse step's facts. */
async function engineVerdict(rt: Runtime, name: string, input: unknown) {
  const tool = rt.pool.find((t) => t.name === name)!;
  const call = await parsed(rt, name, input);
  const ctx = { cwd: rt.cwd, workspace: rt.workspace } as ToolContext;
  return rt.permissions.decide({
    tool: name,
    readOnly: tool.planModeAllowed(call.input, call.facts),
    subject: tool.permissionSubject(call.input, ctx, call.facts),
    strictPlanRefused: false,
  });
}

describe('the facts of a call come from parsing it, not from what ran before', () => {
  it('a direct call after the parse step knows a read-only command before any call has run', async () => {
    const rt = runtime();
    const tool = rt.pool.find((t) => t.name === 'execute_command')!;
    const call = await parsed(rt, 'execute_command', { command: 'git status' });
    expect(tool.isReadOnly(call.input, call.facts)).toBe(true);
    expect(tool.isConcurrencySafe(call.input, call.facts)).toBe(true);
  });

  testNeeds('bwrap')(
    'the permission engine asked directly and the pipeline agree on a read-only command',
    async () => {
      const rt = runtime();
      expect(await engineVerdict(rt, 'execute_command', { command: 'echo hello' })).toEqual({
        behavior: 'allow',
      });
      const result = await rt.runTool('execute_command', { command: 'echo hello' });
      expect(result.permissionDenial).toBeUndefined();
      expect(result.text).toMatch(/^hello\n/);
    },
  );

  testNeeds('bwrap')(
    'the permission engine asked directly and the pipeline agree on a command that writes',
    async () => {
      const rt = runtime();
      const direct = await engineVerdict(rt, 'execute_command', { command: 'touch made.txt' });
      expect(direct).toMatchObject({ behavior: 'ask', category: 'executeAll' });
      const result = await rt.runTool('execute_command', { command: 'touch made.txt' });
      expect(result.permissionDenial).toMatchObject({ category: 'executeAll' });
    },
  );

  it('the facts of one command say nothing of another: it is not read-only', async () => {
    const rt = runtime();
    const tool = rt.pool.find((t) => t.name === 'execute_command')!;
    const other = await parsed(rt, 'execute_command', { command: 'git status' });
    expect(tool.isReadOnly({ command: 'rm -rf src' }, other.facts)).toBe(false);
  });

  it('a command that cannot be parsed is a fact with its reason, and it is not read-only', async () => {
    const rt = runtime();
    const tool = rt.pool.find((t) => t.name === 'execute_command')!;
    const call = await parsed(rt, 'execute_command', { command: 'echo "unclosed' });
    expect(call.facts.command).toMatchObject({ parsed: false, reason: expect.any(String) });
    expect(tool.isReadOnly(call.input, call.facts)).toBe(false);
  });

  testNeeds('bwrap')('a command that cannot be parsed asks, saying it could not be parsed', async () => {
    const rt = runtime();
    const direct = await engineVerdict(rt, 'execute_command', { command: 'echo "unclosed' });
    expect(direct).toMatchObject({
      behavior: 'ask',
      reason: expect.stringMatching(/could not be parsed \(.+\)/),
    });
    const result = await rt.runTool('execute_command', { command: 'echo "unclosed' });
    expect(result.permissionDenial?.reason).toMatch(/could not be parsed \(.+\)/);
  });

  it('task_create and monitor judge their command from the same facts', async () => {
    const rt = createRuntime({
      cwd: tempDir(),
      documentsRoot: tempDir('lathe-home-'),
      env: {},
      features: ['monitor', 'tasks'],
    });
    made.push(rt);
    const monitor = rt.pool.find((t) => t.name === 'monitor')!;
    // monitor is never read-only by the contract; Plan mode allows it when its command only reads.
    const reads = await parsed(rt, 'monitor', { command: 'ls' });
    expect(monitor.isReadOnly(reads.input, reads.facts)).toBe(false);
    expect(monitor.planModeAllowed(reads.input, reads.facts)).toBe(true);
    const writes = await parsed(rt, 'monitor', { command: 'rm -rf build' });
    expect(monitor.planModeAllowed(writes.input, writes.facts)).toBe(false);
    expect(
      await engineVerdict(rt, 'task_create', { subject: 'build', command: 'echo "unclosed' }),
    ).toMatchObject({
      behavior: 'ask',
      reason: expect.stringMatching(/could not be parsed/),
    });
  });
});
