import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandEngine, commandQuery } from '../support/command_engine.js';

/** A workspace with one workflow script, and the engine over it. */
function setUp(workspaceTrusted: boolean) {
  const { e, workspace } = commandEngine([], { yolo: true, workspaceTrusted });
  mkdirSync(join(workspace, '.agents/workflows'), { recursive: true });
  writeFileSync(join(workspace, '.agents/workflows/release.mjs'), 'console.log(1);\n');
  return { e, workspace, script: join(workspace, '.agents/workflows/release.mjs') };
}

async function decide(
  e: ReturnType<typeof setUp>['e'],
  command: string,
  workflowScript: string | undefined,
  cwd: string,
) {
  const { subject } = await commandQuery(command, cwd);
  return e.decide({
    tool: 'run_workflow',
    readOnly: false,
    subject: { ...subject, readOnlyCommand: false, workflowScript },
    strictPlanRefused: false,
  });
}

describe('running a workflow script of .agents/workflows', () => {
  it('is no change to .agents/ in a trusted workspace', async () => {
    const { e, workspace, script } = setUp(true);
    const d = await decide(e, 'node .agents/workflows/release.mjs 2.1.0', script, workspace);
    expect(d).toEqual({ behavior: 'allow' });
  });

  it('asks as a change to .agents/ in an untrusted one', async () => {
    const { e, workspace, script } = setUp(false);
    const d = await decide(e, 'node .agents/workflows/release.mjs', script, workspace);
    expect(d).toMatchObject({ behavior: 'ask', sticky: 'protected' });
  });

  it('covers only the word naming the script: the same path as an argument still asks', async () => {
    const { e, workspace, script } = setUp(true);
    const command = 'node .agents/workflows/release.mjs .agents/workflows/release.mjs';
    expect(await decide(e, command, script, workspace)).toMatchObject({ sticky: 'protected' });
  });

  it('is no exemption for a command that does not say it runs that script', async () => {
    const { e, workspace } = setUp(true);
    const d = await decide(e, 'node .agents/workflows/release.mjs', undefined, workspace);
    expect(d).toMatchObject({ behavior: 'ask', sticky: 'protected' });
  });

  it('is no exemption for a script outside .agents/workflows/', async () => {
    const { e, workspace } = setUp(true);
    writeFileSync(join(workspace, '.agents/setup.mjs'), 'console.log(1);\n');
    const script = join(workspace, '.agents/setup.mjs');
    const d = await decide(e, 'node .agents/setup.mjs', script, workspace);
    expect(d).toMatchObject({ behavior: 'ask', sticky: 'protected' });
  });

  it('leaves writing to .agents/workflows/ protected in a trusted workspace, even with --yolo', () => {
    const { e, script } = setUp(true);
    expect(e.decidePath('write_to_file', 'edit', script)).toMatchObject({
      behavior: 'ask',
      sticky: 'protected',
    });
  });
});
