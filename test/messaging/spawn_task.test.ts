import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/runtime/create_runtime.js';
import type { AgentKind } from '../../src/tool/types.js';
import { tempDir } from '../support/runtime_fixtures.js';

const runtimeAs = (agentKind: AgentKind, extra: { latheBin?: string } = {}) =>
  createRuntime({
    cwd: tempDir(),
    documentsRoot: tempDir('lathe-home-'),
    agentKind,
    yolo: true,
    env: {},
    ...extra,
  });

describe('spawn_task', () => {
  it('is offered to the user agent, not inside a subagent or a spawned task', () => {
    expect(runtimeAs('main').pool.map((t) => t.name)).toContain('spawn_task');
    expect(runtimeAs('subagent').pool.map((t) => t.name)).not.toContain('spawn_task');
    expect(runtimeAs('task').pool.map((t) => t.name)).not.toContain('spawn_task');
  });

  it('with isolation "worktree" outside a git repository refuses with the reason and starts nothing', async () => {
    const runtime = runtimeAs('main', { latheBin: '/nonexistent/lathe.js' });
    const result = await runtime.runTool('spawn_task', { prompt: 'do it', isolation: 'worktree' });
    expect(result).toMatchObject({
      isError: true,
      text: expect.stringMatching(
        /^The task was not started: its worktree could not be made: .*is not in a git repository/,
      ),
    });
    expect(runtime.runningBackgroundWork()).toEqual([]);
    expect(existsSync(join(runtime.sessionDir, 'tasks'))).toBe(false);
    await runtime.dispose();
  });

  it('says why when this lathe cannot start runs', async () => {
    const runtime = runtimeAs('main');
    const result = await runtime.runTool('spawn_task', { prompt: 'do it' });
    expect(result).toMatchObject({
      isError: true,
      text: expect.stringMatching(/^The task was not started: cannot start a headless run/),
    });
    expect(runtime.runningBackgroundWork()).toEqual([]);
    await runtime.dispose();
  });
});
