import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { closeFakeServers, runHeadless } from '../../support/headless_run.js';
import { testNeeds } from '../../support/required_programs.js';
import { tempDir } from '../../support/runtime_fixtures.js';

afterEach(closeFakeServers);

const FIXTURES = fileURLToPath(new URL('../../fixtures/commands/workspace', import.meta.url));

/** `lathe -p` in a copy of the workspace with workflow scripts, the model calling run_workflow once. */
async function runHello(flags: string[]) {
  const dir = tempDir('lathe-workflows-');
  cpSync(FIXTURES, dir, { recursive: true });
  const turns = [
    { toolCalls: [{ name: 'run_workflow', input: { name: 'hello', args: ['2.1.0'] } }] },
    { text: 'done' },
  ];
  const run = await runHeadless(dir, turns, ['--feature', 'workflow_scripts', ...flags]);
  const result = run.requests[1]?.toolResults[0];
  return { ...run, dir, result };
}

describe('run_workflow in lathe -p', () => {
  testNeeds('bwrap')("runs a trusted workspace's script with --yolo --trust", async () => {
    const run = await runHello(['--yolo', '--trust']);
    expect(run.code).toBe(0);
    expect(run.result?.content).toContain('hello from the workflow: 2.1.0');
    expect(run.result?.isError).toBeFalsy();
    expect(existsSync(join(run.dir, 'workflow-ran.txt'))).toBe(true);
  });

  it('refuses the scripts of a folder that is not trusted, even with --yolo', async () => {
    const run = await runHello(['--yolo']);
    expect(run.result?.isError).toBe(true);
    expect(run.result?.content).toContain('No workflow script "hello"');
    expect(run.stderr).toContain('wait for trust');
    expect(existsSync(join(run.dir, 'workflow-ran.txt'))).toBe(false);
  });

  testNeeds('bwrap')('asks without --yolo, and with no one to ask the script never runs', async () => {
    const run = await runHello(['--trust']);
    expect(run.result?.isError).toBe(true);
    expect(run.result?.content).toContain('needs approval');
    expect(existsSync(join(run.dir, 'workflow-ran.txt'))).toBe(false);
  });
});
