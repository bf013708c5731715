import { afterEach, describe, expect, it } from 'vitest';
import { NO_FACTS } from '../../src/tool/facts.js';
import { findTool } from '../../src/tool/pool.js';
import { builtinTools } from '../../src/tools/index.js';
import { lathe } from '../support/cli.js';
import { closeFakeServers, runHeadless } from '../support/headless_run.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { disposeAll, runtimeWith } from '../tasks/helpers.js';

afterEach(async () => {
  await closeFakeServers();
  await disposeAll();
});

const env = () => ({ LATHE_HOME: tempDir('lathe-home-'), LATHE_FEATURES: '' });

describe('config', () => {
  it('is offered with the internal feature; read-only for get and list', () => {
    expect(runtimeWith(['internal']).pool.map((t) => t.name)).toContain('config');
    expect(runtimeWith([]).pool.map((t) => t.name)).not.toContain('config');
    const tool = findTool(builtinTools(), 'config')!;
    expect(tool.isReadOnly({ action: 'list' }, NO_FACTS)).toBe(true);
    expect(tool.isReadOnly({ action: 'get', key: 'model' }, NO_FACTS)).toBe(true);
    expect(tool.isReadOnly({ action: 'set', key: 'web.maxBytes', value: 1 }, NO_FACTS)).toBe(false);
  });

  it('lists every setting in the settings files’ keys and units, marking those a session may change', async () => {
    const rt = runtimeWith(['internal'], { settings: { web: { timeouts: { total: 12 } } } });
    const r = await rt.runTool('config', { action: 'list' });
    const lines = r.text.split('\n');
    expect(lines).toContain('web.timeouts.total = 12  (settable)');
    expect(lines).toContain('sandbox.mode = "workspace-write"');
    expect(lines).toContain('approvals.edit = "ask"');
    expect(lines).toContain('features = ["browser","internal","subagents"]');
  });

  it('gets one key or a section, and says why a key cannot be set', async () => {
    const rt = runtimeWith(['internal']);
    expect((await rt.runTool('config', { action: 'get', key: 'repl.timeout' })).text).toBe(
      'repl.timeout = 30 (a session may change it)',
    );
    const sandbox = await rt.runTool('config', { action: 'get', key: 'sandbox' });
    expect(sandbox.text).toMatch(/^sandbox = \{\n {2}"mode": "workspace-write",\n {2}"network": false\n\}/);
    const unknown = await rt.runTool('config', { action: 'get', key: 'colour' });
    expect(unknown).toMatchObject({
      isError: true,
      text: 'lathe has no setting colour; config list shows them all.',
    });
  });

  it('sets a key for the session once approved, and the change takes effect at once', async () => {
    const rt = runtimeWith(['internal'], { yolo: true, settings: { sandbox: { mode: 'off' } } });
    const set = await rt.runTool('config', { action: 'set', key: 'commands.maxOutputBytes', value: 2000 });
    expect(set.text).toBe('Set commands.maxOutputBytes to 2000 for this session (it was 67108864).');
    expect(rt.settings.commands.maxOutputBytes).toBe(2000);
    const run = await rt.runTool('execute_command', {
      command: 'head -c 50000 /dev/zero | tr "\\0" x; echo',
    });
    expect(run.text).toMatch(/commands\.maxOutputBytes/);
  });

  it('refuses to set what guards the user: permissions, sandbox, hooks, approvals, mode, features', async () => {
    const rt = runtimeWith(['internal'], { yolo: true });
    for (const [key, value] of [
      ['permissions.allow', ['execute_command']],
      ['sandbox.mode', 'off'],
      ['sandbox', { network: true }],
      ['hooks', { PreToolUse: [] }],
      ['approvals.edit', 'allow'],
      ['mode', 'act'],
      ['features', ['web']],
      ['web.allow', ['10.0.0.0/8']],
    ] as const) {
      const r = await rt.runTool('config', { action: 'set', key, value });
      expect(r.isError, key).toBe(true);
      expect(r.text).toBe(
        `${key} cannot be set by the model: permissions, approvals, the sandbox, hooks and the other keys that guard the user change only in a settings file or on the command line, by the user. Ask the user to change it if it is needed.`,
      );
    }
    expect(rt.settings.sandbox.mode).toBe('workspace-write');
    expect(rt.settings.rules).toEqual([]);
    expect(rt.settings.approvals.edit).toBe('ask');
  });

  it('checks a value as a settings file would be checked, and refuses keys read only at start', async () => {
    const rt = runtimeWith(['internal'], { yolo: true });
    const bad = await rt.runTool('config', { action: 'set', key: 'web.maxBytes', value: -3 });
    expect(bad).toMatchObject({
      isError: true,
      text: '"web.maxBytes" must be a positive whole number of bytes',
    });
    const wrongType = await rt.runTool('config', { action: 'set', key: 'modelTimeouts.idle', value: 'soon' });
    expect(wrongType.text).toBe('modelTimeouts.idle must be a positive number of seconds');
    const atStart = await rt.runTool('config', { action: 'set', key: 'profile', value: 'lite' });
    expect(atStart.text).toBe(
      'profile cannot be changed during a session: it is read when the session starts: change it in a settings file and start a new session.',
    );
    expect(rt.settings.web.maxBytes).toBe(10 * 1024 * 1024);
  });

  it('asks before a change: headless, with no one to approve, it is not made', async () => {
    const rt = runtimeWith(['internal']);
    const r = await rt.runTool('config', { action: 'set', key: 'web.maxBytes', value: 1000 });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(
      /^Not run: config would set web.maxBytes to 1000 for this session, and no one is present/,
    );
    expect(rt.settings.web.maxBytes).toBe(10 * 1024 * 1024);
  });

  it('through lathe tool: a permission key is refused', () => {
    const input = JSON.stringify({
      action: 'set',
      key: 'permissions.allow',
      value: ['execute_command(rm *)'],
    });
    const r = lathe(
      ['tool', 'config', '--feature', 'internal', '--yolo', '--input', input, '--cwd', tempDir()],
      {
        env: env(),
      },
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^permissions.allow cannot be set by the model: /);
  });

  it('in lathe -p: a sandbox key is refused, a settable key is changed and read back', async () => {
    const r = await runHeadless(
      tempDir(),
      [
        { toolCalls: [{ name: 'config', input: { action: 'set', key: 'sandbox.mode', value: 'off' } }] },
        { toolCalls: [{ name: 'config', input: { action: 'set', key: 'web.timeouts.total', value: 5 } }] },
        { toolCalls: [{ name: 'config', input: { action: 'get', key: 'web.timeouts.total' } }] },
        { text: 'done' },
      ],
      ['--feature', 'internal', '--yolo'],
    );
    expect(r.code).toBe(0);
    const results = r.requests.slice(1).map((q) => q.toolResults[0]);
    expect(results[0]).toMatchObject({ isError: true });
    expect(results[0].content).toMatch(/^sandbox.mode cannot be set by the model/);
    expect(results[1].content).toBe('Set web.timeouts.total to 5 for this session (it was 30).');
    expect(results[2].content).toBe('web.timeouts.total = 5 (a session may change it)');
  });
});
