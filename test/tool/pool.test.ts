import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTool } from '../../src/tool/build_tool.js';
import { defaultConditions, unmetCondition } from '../../src/tool/conditions.js';
import { assemblePool, findTool } from '../../src/tool/pool.js';
import type { Availability } from '../../src/tool/types.js';

const make = (
  name: string,
  availability: Partial<Availability> = {},
  source: 'builtin' | 'external' = 'builtin',
  tag = '',
) =>
  buildTool(
    {
      name,
      inputSchema: z.object({}),
      description: `${name}${tag}`,
      availability: { profiles: ['standard', 'lite', 'simple'], ...availability },
      kind: 'other',
      async call() {
        return { text: name };
      },
    },
    source,
  );

describe('assemblePool', () => {
  it('sorts built-ins by name, then external tools by name', () => {
    const pool = assemblePool({
      builtins: [make('zeta'), make('alpha')],
      external: [make('mcp__b', {}, 'external'), make('mcp__a', {}, 'external')],
      conditions: defaultConditions(),
    });
    expect(pool.map((t) => t.name)).toEqual(['alpha', 'zeta', 'mcp__a', 'mcp__b']);
  });

  it('keeps the built-in when an external tool has the same name', () => {
    const pool = assemblePool({
      builtins: [make('read_file', {}, 'builtin', ' (builtin)')],
      external: [make('read_file', {}, 'external', ' (mcp)')],
      conditions: defaultConditions(),
    });
    expect(pool).toHaveLength(1);
    expect(pool[0].description).toBe('read_file (builtin)');
  });

  it('de-duplicates external tools among themselves', () => {
    const pool = assemblePool({
      builtins: [],
      external: [make('x', {}, 'external', '1'), make('x', {}, 'external', '2')],
      conditions: defaultConditions(),
    });
    expect(pool.map((t) => t.name)).toEqual(['x']);
  });

  it('removes a tool that a tool-wide deny rule names', () => {
    const pool = assemblePool({
      builtins: [make('a'), make('web_fetch')],
      conditions: defaultConditions(),
      isDenied: (name) => name === 'web_fetch',
    });
    expect(pool.map((t) => t.name)).toEqual(['a']);
  });

  it('leaves out tools whose conditions fail', () => {
    const pool = assemblePool({
      builtins: [make('plain'), make('webby', { feature: 'web' })],
      conditions: defaultConditions(),
    });
    expect(pool.map((t) => t.name)).toEqual(['plain']);
  });

  it('gives the coordinator lead only the tools that declare themselves for it', () => {
    const pool = assemblePool({
      builtins: [
        ...['use_subagent', 'task_stop', 'send_message', 'structured_output'].map((n) =>
          make(n, { coordinator: true }),
        ),
        make('read_file'),
      ],
      conditions: defaultConditions({ features: new Set(['coordinator']) }),
    });
    expect(pool.map((t) => t.name)).toEqual([
      'send_message',
      'structured_output',
      'task_stop',
      'use_subagent',
    ]);
  });

  it('finds a tool by alias', () => {
    const tool = buildTool({
      name: 'working_respond',
      aliases: ['act_mode_respond'],
      inputSchema: z.object({}),
      description: '',
      availability: { profiles: ['standard'] },
      kind: 'other',
      async call() {
        return { text: '' };
      },
    });
    expect(findTool([tool], 'act_mode_respond')?.name).toBe('working_respond');
  });
});

describe('conditions', () => {
  const c = defaultConditions;
  it('profile: a standard-only tool is not in lite', () =>
    expect(unmetCondition(make('t', { profiles: ['standard'] }), c({ profile: 'lite' }))).toMatch(/lite/));
  it('profile: simple keeps its own tools', () =>
    expect(unmetCondition(make('t', { profiles: ['simple'] }), c({ profile: 'simple' }))).toBeUndefined());
  it('feature: off by default', () =>
    expect(unmetCondition(make('t', { feature: 'web' }), c())).toMatch(/web/));
  it('feature: on when switched on', () =>
    expect(unmetCondition(make('t', { feature: 'web' }), c({ features: new Set(['web']) }))).toBeUndefined());
  it('mode: a plan-only tool is not offered in act', () =>
    expect(unmetCondition(make('t', { modes: ['plan'] }), c({ mode: 'act' }))).toMatch(/act/));
  it('capability: needs images', () =>
    expect(
      unmetCondition(
        make('t', { needs: ['browserUse'] }),
        c({ capabilities: { images: true, browserUse: false, nativeTools: true, imageGeneration: false } }),
      ),
    ).toMatch(/browserUse/));
  it('task permission: not inside a subagent', () =>
    expect(unmetCondition(make('t', { notFor: ['subagent'] }), c({ agentKind: 'subagent' }))).toMatch(
      /subagent/,
    ));
  it('task permission: offered to the main agent', () =>
    expect(unmetCondition(make('t', { notFor: ['subagent'] }), c())).toBeUndefined());
  it('environment: MCP tools need a connected server', () =>
    expect(unmetCondition(make('t', { requires: ['mcp'] }), c())).toMatch(/MCP/));
  it('test-only tools exist only under NODE_ENV=test', () => {
    expect(unmetCondition(make('t', { testOnly: true }), c({ nodeEnv: 'production' }))).toMatch(/NODE_ENV/);
    expect(unmetCondition(make('t', { testOnly: true }), c({ nodeEnv: 'test' }))).toBeUndefined();
  });
  it('isEnabled false leaves the tool out', () => {
    const tool = buildTool({
      name: 'off',
      inputSchema: z.object({}),
      description: '',
      availability: { profiles: ['standard'] },
      kind: 'other',
      isEnabled: () => false,
      async call() {
        return { text: '' };
      },
    });
    expect(unmetCondition(tool, c())).toBe('disabled');
  });
});
