import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { globalSettingsPath, workspaceSettingsPath } from '../../src/config/paths.js';
import { createRuntime, type RuntimeOptions } from '../../src/runtime/create_runtime.js';
import type { ApprovalRequest } from '../../src/tool/run_call.js';
import { pathWithoutBubblewrap } from '../support/no_bubblewrap.js';
import { tempDir } from '../support/runtime_fixtures.js';

// This file's lathe finds no bubblewrap: its sandbox probe fails as on a machine without it.
const savedPath = process.env.PATH;
beforeAll(() => {
  process.env.PATH = pathWithoutBubblewrap();
});
afterAll(() => {
  process.env.PATH = savedPath;
});

const REFUSAL =
  'Not run: the sandbox is unavailable: bubblewrap (bwrap) is not installed; install it (apt install bubblewrap) ' +
  'or pass --sandbox off to run commands without it.';

function runtime(options: RuntimeOptions = {}) {
  return createRuntime({ cwd: tempDir(), documentsRoot: tempDir('lathe-home-'), env: {}, ...options });
}

/** An approver that records what it was asked and answers `approved`. */
function approver(approved: boolean) {
  const asked: ApprovalRequest[] = [];
  return {
    asked,
    askUser: async (request: ApprovalRequest) => {
      asked.push(request);
      return { approved };
    },
  };
}

describe('without a person to ask, commands are refused when the sandbox is unavailable', () => {
  it('refuses even a read-only command, and says what to do', async () => {
    const r = await runtime().runTool('execute_command', { command: 'echo hi' });
    expect(r).toMatchObject({ isError: true, text: REFUSAL });
  });

  it('refuses under --yolo too, and runs nothing', async () => {
    const rt = runtime({ yolo: true });
    expect((await rt.runTool('execute_command', { command: 'touch made' })).text).toBe(REFUSAL);
    expect(existsSync(join(rt.cwd, 'made'))).toBe(false);
    expect(rt.sandboxRefusals).toBe(1);
    expect(await rt.sandboxNotice()).toBe(
      'commands are refused: the sandbox is unavailable: bubblewrap (bwrap) is not installed; ' +
        'install it (apt install bubblewrap) or pass --sandbox off to run commands without it',
    );
  });

  it('refuses the commands of tasks as well, but not tools that run none', async () => {
    const rt = runtime({ yolo: true, features: ['tasks'] });
    expect((await rt.runTool('task_create', { subject: 's', command: 'echo hi' })).text).toBe(REFUSAL);
    expect((await rt.runTool('task_create', { subject: 'tracked only' })).isError).toBe(false);
    writeFileSync(join(rt.cwd, 'a.txt'), 'hello\n');
    expect((await rt.runTool('read_file', { path: 'a.txt' })).text).toBe('1\thello');
  });

  it('runs them bare when --sandbox off was given', async () => {
    const rt = runtime({ settings: { sandbox: { mode: 'off' } } });
    expect((await rt.runTool('execute_command', { command: 'echo hi' })).text).toBe('hi\n\nExit code 0.');
    expect(await rt.sandboxNotice()).toBeUndefined();
  });

  it("runs them bare when the user's own settings turn the sandbox off", async () => {
    const home = tempDir('lathe-home-');
    mkdirSync(join(home, 'settings'), { recursive: true });
    writeFileSync(globalSettingsPath(home), JSON.stringify({ sandbox: { mode: 'off' } }));
    const rt = runtime({ documentsRoot: home });
    expect((await rt.runTool('execute_command', { command: 'echo hi' })).isError).toBe(false);
  });

  it("does not count an untrusted workspace's settings that turn the sandbox off", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, '.agents'));
    writeFileSync(workspaceSettingsPath(dir), JSON.stringify({ sandbox: { mode: 'off' } }));
    const r = await runtime({ cwd: dir, yolo: true }).runTool('execute_command', { command: 'touch made' });
    expect(r.text).toMatch(/^Not run: the sandbox is unavailable: bubblewrap \(bwrap\) is not installed/);
    expect(existsSync(join(dir, 'made'))).toBe(false);
  });

  it("counts a trusted workspace's settings that turn the sandbox off", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, '.agents'));
    writeFileSync(workspaceSettingsPath(dir), JSON.stringify({ sandbox: { mode: 'off' } }));
    const r = await runtime({ cwd: dir, yolo: true, trust: true }).runTool('execute_command', {
      command: 'touch made',
    });
    expect(r.isError).toBe(false);
    expect(existsSync(join(dir, 'made'))).toBe(true);
  });
});

describe('with a person to ask (the UI), each command asks', () => {
  it('asks for a read-only command that an allow rule covers, and runs it when approved', async () => {
    const { asked, askUser } = approver(true);
    const rt = runtime({ askUser, settings: { permissions: { allow: ['execute_command(echo*)'] } } });
    const r = await rt.runTool('execute_command', { command: 'echo hi' });
    expect(r.text).toBe('hi\n\nExit code 0.');
    expect(asked.map((a) => a.reason)).toEqual([
      'the sandbox is unavailable (bubblewrap (bwrap) is not installed): this command would run without it ' +
        '(no sandbox: always asks)',
    ]);
    await rt.runTool('execute_command', { command: 'echo again' });
    expect(asked).toHaveLength(2);
    expect(await rt.sandboxNotice()).toBe(
      'The sandbox is off: bubblewrap (bwrap) is not installed. Each command asks before it runs without it; ' +
        'install it (apt install bubblewrap) or pass --sandbox off to run commands without it.',
    );
  });

  it('runs nothing when the answer is no', async () => {
    const { askUser } = approver(false);
    const rt = runtime({ askUser });
    const r = await rt.runTool('execute_command', { command: 'touch made' });
    expect(r).toMatchObject({ isError: true, text: 'The user declined execute_command.' });
    expect(existsSync(join(rt.cwd, 'made'))).toBe(false);
  });

  it('refuses instead of asking under --yolo', async () => {
    const { asked, askUser } = approver(true);
    const r = await runtime({ askUser, yolo: true }).runTool('execute_command', { command: 'echo hi' });
    expect(r.text).toBe(REFUSAL);
    expect(asked).toEqual([]);
  });
});
