import { cpSync, existsSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime, type RuntimeOptions } from '../../../src/runtime/create_runtime.js';
import { testNeeds } from '../../support/required_programs.js';
import { tempDir, writeTree } from '../../support/runtime_fixtures.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/commands/workspace', import.meta.url));

const runtimes: Runtime[] = [];
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.dispose()));
});

function runtimeIn(dir: string, options: RuntimeOptions = {}): Runtime {
  const home = tempDir('lathe-home-');
  const runtime = createRuntime({
    cwd: dir,
    documentsRoot: home,
    trust: true,
    env: { HOME: home, LATHE_FEATURES: 'workflow_scripts' },
    ...options,
  });
  runtimes.push(runtime);
  return runtime;
}

function fixtureWorkspace(): string {
  const dir = tempDir('lathe-workflows-');
  cpSync(FIXTURES, dir, { recursive: true });
  return dir;
}

const names = (runtime: Runtime) => runtime.pool.map((tool) => tool.name);

describe('load_workflow', () => {
  it('is offered only where a workflow exists', () => {
    expect(names(runtimeIn(fixtureWorkspace()))).toContain('load_workflow');
    expect(names(runtimeIn(writeTree({ 'a.txt': 'x' })))).not.toContain('load_workflow');
  });

  it("gives the workflow's steps", async () => {
    const result = await runtimeIn(fixtureWorkspace()).runTool('load_workflow', { name: 'triage' });
    expect(result.isError).toBe(false);
    expect(result.text).toBe(
      'Workflow "triage" (.clinerules/workflows/triage.md): Triage an issue\n\n# Triage an issue\n\n- Read the issue.\n- Label it.',
    );
  });

  it('names the workflows there are when asked for another', async () => {
    const result = await runtimeIn(fixtureWorkspace()).runTool('load_workflow', { name: 'deploy' });
    expect(result).toMatchObject({
      isError: true,
      text: 'No workflow "deploy". Workflows: release, triage.',
    });
  });
});

describe('run_workflow', () => {
  it('is offered with the feature workflow_scripts only', () => {
    expect(names(runtimeIn(fixtureWorkspace()))).toContain('run_workflow');
    const without = runtimeIn(fixtureWorkspace(), { env: { LATHE_FEATURES: '' } });
    expect(names(without)).not.toContain('run_workflow');
  });

  testNeeds('bwrap')(
    "runs a trusted workspace's .mjs script under --yolo: running it is no change to .agents/",
    async () => {
      const runtime = runtimeIn(fixtureWorkspace(), { yolo: true });
      const result = await runtime.runTool('run_workflow', { name: 'hello', args: ['a'] });
      expect(result.permissionDenial).toBeUndefined();
      expect(result.text).toBe('hello from the workflow: a\n\nExit code 0.');
      expect(existsSync(join(runtime.workspace, 'workflow-ran.txt'))).toBe(true);
    },
  );

  testNeeds('bwrap')(
    'an argument naming .agents/ still asks even with --yolo: with no one to ask, the script never runs',
    async () => {
      const runtime = runtimeIn(fixtureWorkspace(), { yolo: true });
      const result = await runtime.runTool('run_workflow', {
        name: 'hello',
        args: ['.agents/settings.json'],
      });
      expect(result.permissionDenial?.reason).toContain(
        ".agents/settings.json is the project's .agents/ settings (protected: always asks)",
      );
      expect(existsSync(join(runtime.workspace, 'workflow-ran.txt'))).toBe(false);
    },
  );

  testNeeds('bwrap')(
    'a script linked to a file elsewhere in .agents/ asks as a command naming it does',
    async () => {
      const dir = fixtureWorkspace();
      writeFileSync(join(dir, '.agents/setup.mjs'), "console.log('elsewhere');\n");
      symlinkSync('../setup.mjs', join(dir, '.agents/workflows/linked.mjs'));
      const result = await runtimeIn(dir, { yolo: true }).runTool('run_workflow', { name: 'linked' });
      expect(result.permissionDenial?.reason).toContain("is the project's .agents/ settings");
    },
  );

  it('runs a .mjs script with node in the sandbox once approved, each argument one word', async () => {
    const asked: string[] = [];
    const runtime = runtimeIn(fixtureWorkspace(), {
      askUser: async (request) => {
        asked.push(request.tool.name);
        return { approved: true };
      },
    });
    const result = await runtime.runTool('run_workflow', { name: 'hello', args: ['a b', '$(touch marker)'] });
    expect(result.isError).toBe(false);
    expect(result.text).toBe('hello from the workflow: a b | $(touch marker)\n\nExit code 0.');
    expect(existsSync(join(runtime.workspace, 'workflow-ran.txt'))).toBe(true);
    expect(existsSync(join(runtime.workspace, 'marker'))).toBe(false);
    expect(asked).toEqual(['run_workflow']);
  });

  testNeeds('bwrap')('runs an executable script', async () => {
    const result = await runtimeIn(fixtureWorkspace(), { yolo: true }).runTool('run_workflow', {
      name: 'count',
      args: ['one', 'two'],
    });
    expect(result.text).toBe('count: 2\n\nExit code 0.');
  });

  it('an unknown script is refused before anything runs, naming the scripts there are', async () => {
    const result = await runtimeIn(fixtureWorkspace(), { yolo: true }).runTool('run_workflow', {
      name: 'nope',
    });
    expect(result).toMatchObject({ isError: true });
    expect(result.text).toContain('No workflow script "nope". Scripts: count, hello.');
  });
});
