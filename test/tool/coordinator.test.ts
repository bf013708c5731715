import { describe, expect, it } from 'vitest';
import { systemPrompt } from '../../src/agent/system_prompt.js';
import { createRuntime } from '../../src/runtime/create_runtime.js';
import { defaultConditions } from '../../src/tool/conditions.js';
import { assemblePool, coordinatorProblem, isCoordinatorPool } from '../../src/tool/pool.js';
import type { PoolConditions } from '../../src/tool/types.js';
import { builtinTools } from '../../src/tools/index.js';
import { tempDir } from '../support/runtime_fixtures.js';

const coordinating = (overrides: Partial<PoolConditions> = {}) =>
  defaultConditions({ features: new Set(['subagents', 'browser', 'coordinator']), ...overrides });

const names = (conditions: PoolConditions, isDenied?: (name: string) => boolean) =>
  assemblePool({ builtins: builtinTools(), conditions, isDenied }).map((t) => t.name);

describe('coordinator mode', () => {
  it("leaves the lead only the coordinator's tools, task_stop even without feature tasks", () => {
    expect(names(coordinating())).toEqual(['send_message', 'task_stop', 'use_subagent']);
    expect(names(coordinating({ jsonSchema: true }))).toEqual([
      'send_message',
      'structured_output',
      'task_stop',
      'use_subagent',
    ]);
  });

  it('leaves subagents and spawned tasks their usual tools', () => {
    for (const agentKind of ['subagent', 'task'] as const) {
      const pool = names(coordinating({ agentKind }));
      expect(pool).toContain('read_file');
      expect(pool).not.toContain('spawn_task');
      expect(pool.length).toBeGreaterThan(4);
    }
  });

  it('keeps the usual tools, saying why, when the lead could not delegate', () => {
    const denied = (name: string) => name === 'use_subagent';
    const pool = names(coordinating(), denied);
    expect(pool).toContain('read_file');
    expect(pool).toContain('send_message');
    expect(
      coordinatorProblem({
        builtins: builtinTools(),
        conditions: coordinating(),
        isDenied: denied,
      }),
    ).toBe(
      'coordinator mode is off: the lead could not delegate, as use_subagent is not offered (a deny rule removes it); it keeps its usual tools',
    );
    const lite = coordinating({ profile: 'lite' });
    expect(coordinatorProblem({ builtins: builtinTools(), conditions: lite })).toMatch(
      /\(not in the lite profile\)/,
    );
    expect(coordinatorProblem({ builtins: builtinTools(), conditions: coordinating() })).toBe(undefined);
  });

  it("gives a coordinating runtime's lead only the coordinator's tools", () => {
    const runtime = createRuntime({
      cwd: tempDir(),
      documentsRoot: tempDir('lathe-home-'),
      features: ['coordinator'],
      env: {},
    });
    expect(runtime.pool.map((t) => t.name)).toEqual(['send_message', 'task_stop', 'use_subagent']);
    expect(isCoordinatorPool(runtime.conditions, runtime.pool)).toBe(true);
  });

  it('a runtime whose rules deny use_subagent warns and keeps the usual pool', () => {
    const runtime = createRuntime({
      cwd: tempDir(),
      documentsRoot: tempDir('lathe-home-'),
      features: ['coordinator'],
      settings: { permissions: { deny: ['use_subagent'] } },
      env: {},
    });
    expect(runtime.warnings).toContain(
      'coordinator mode is off: the lead could not delegate, as use_subagent is not offered (a deny rule removes it); it keeps its usual tools',
    );
    expect(runtime.pool.map((t) => t.name)).toContain('read_file');
    expect(isCoordinatorPool(runtime.conditions, runtime.pool)).toBe(false);
  });

  it('tells the coordinator in its system prompt to delegate, and only the coordinator', () => {
    const conditions = coordinating();
    const pool = assemblePool({ builtins: builtinTools(), conditions });
    expect(isCoordinatorPool(conditions, pool)).toBe(true);
    const inputs = {
      profile: 'standard' as const,
      mode: 'act' as const,
      environment: 'env',
      agentsFiles: [],
    };
    expect(systemPrompt({ ...inputs, coordinator: true })).toContain(
      'You are the coordinator: you do not read, edit or run anything yourself. Delegate every piece of work to subagents with use_subagent',
    );
    expect(systemPrompt(inputs)).not.toContain('You are the coordinator');
    const usual = assemblePool({
      builtins: builtinTools(),
      conditions: defaultConditions(),
    });
    expect(isCoordinatorPool(defaultConditions(), usual)).toBe(false);
  });
});
