import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SettingsError } from '../../../src/config/settings_file.js';
import { createRuntime } from '../../../src/runtime/create_runtime.js';
import { tempDir } from '../../support/runtime_fixtures.js';
import { closeHookedRuntimes, hookedRuntime, preToolUse, writeHookSettings } from './support.js';

afterEach(closeHookedRuntimes);

const claudeSettings = (folder: string, value: unknown) => {
  mkdirSync(join(folder, '.claude'), { recursive: true });
  writeFileSync(join(folder, '.claude', 'settings.json'), JSON.stringify(value));
};

describe('where hooks come from', () => {
  it('an untrusted workspace’s hooks are not loaded, and say they wait for trust', () => {
    const workspace = tempDir('lathe-hooks-');
    writeHookSettings(workspace, preToolUse('', { command: 'exit 2' }));
    const runtime = createRuntime({ cwd: workspace, documentsRoot: tempDir(), env: { NODE_ENV: 'test' } });
    expect(runtime.hooks.set.list()).toEqual([]);
    expect(runtime.trust.settings).toContain('hooks');
  });

  it('reads the global settings’ hooks and the workspace’s, each with its source', async () => {
    const workspace = tempDir('lathe-hooks-');
    const home = tempDir('lathe-home-');
    mkdirSync(join(home, 'settings'));
    writeFileSync(
      join(home, 'settings', 'settings.json'),
      JSON.stringify({ hooks: preToolUse('Bash', { command: 'true' }) }),
    );
    writeHookSettings(workspace, {
      Stop: [{ hooks: [{ type: 'command', command: 'echo done', timeout: 5, failClosed: true }] }],
    });
    const { runtime } = await hookedRuntime(workspace, { documentsRoot: home });
    expect(runtime.hooks.set.list()).toEqual([
      {
        event: 'PreToolUse',
        matcher: 'Bash',
        hooks: [{ command: 'true', timeoutSeconds: 60, failClosed: false }],
        source: join(home, 'settings', 'settings.json'),
        compiled: expect.anything(),
      },
      {
        event: 'Stop',
        matcher: '',
        hooks: [{ command: 'echo done', timeoutSeconds: 5, failClosed: true }],
        source: join(workspace, '.agents', 'settings.json'),
        compiled: expect.anything(),
      },
    ]);
  });

  it('reads Claude Code’s hooks only with hooks.readClaude, the project’s and the user’s', async () => {
    const workspace = tempDir('lathe-hooks-');
    const home = tempDir('home-');
    claudeSettings(workspace, { hooks: preToolUse('Edit', { command: 'project-hook' }) });
    claudeSettings(home, { hooks: preToolUse('Bash', { command: 'user-hook' }) });
    const off = await hookedRuntime(workspace, { env: { HOME: home } });
    expect(off.runtime.hooks.set.list()).toEqual([]);
    writeHookSettings(workspace, { readClaude: true });
    const on = await hookedRuntime(workspace, { env: { HOME: home } });
    expect(on.runtime.hooks.set.list().map((g) => g.hooks[0].command)).toEqual(['user-hook', 'project-hook']);
  });

  it('a hook of the wrong shape in lathe’s settings stops the start, naming file and key', () => {
    const workspace = tempDir('lathe-hooks-');
    writeHookSettings(workspace, {
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'x', timeout: -1 }] }],
    });
    expect(() => createRuntime({ cwd: workspace, documentsRoot: tempDir(), trust: true, env: {} })).toThrow(
      new SettingsError(
        `${join(workspace, '.agents', 'settings.json')}: "hooks.PreToolUse[0].hooks[0].timeout" must be a positive number of seconds (found -1)`,
      ),
    );
  });

  it('an unknown event, a bad matcher and a bad Claude Code hook are warnings, never silent', async () => {
    const workspace = tempDir('lathe-hooks-');
    const home = tempDir('home-');
    claudeSettings(home, {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'prompt', prompt: 'ok?' }] }] },
    });
    writeHookSettings(workspace, {
      readClaude: true,
      BeforeLunch: [],
      ...preToolUse('Bash(', { command: 'true' }),
    });
    const { runtime } = await hookedRuntime(workspace, { env: { HOME: home } });
    const settings = join(workspace, '.agents', 'settings.json');
    expect(runtime.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          new RegExp(`^${settings}: hooks event "BeforeLunch" is not known; use SessionStart, `),
        ),
        `${join(home, '.claude', 'settings.json')}: "hooks.PreToolUse[0].hooks[0].type" must be "command" (found "prompt"); that hook is not run`,
        expect.stringMatching(
          new RegExp(`^${settings}: hooks.PreToolUse: matcher "Bash\\(" is no valid regular expression`),
        ),
      ]),
    );
  });
});
