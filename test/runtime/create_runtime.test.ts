import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SettingsError } from '../../src/config/settings_file.js';
import { createRuntime, RuntimeError } from '../../src/runtime/create_runtime.js';
import { tempDir } from '../support/runtime_fixtures.js';

const names = (rt: { pool: { name: string }[] }) => rt.pool.map((t) => t.name);

describe('createRuntime', () => {
  it('offers the standard tools sorted by name', () => {
    const rt = createRuntime({ cwd: tempDir(), documentsRoot: tempDir(), env: {} });
    expect(names(rt)).toEqual([...names(rt)].sort());
    expect(names(rt)).toEqual(
      expect.arrayContaining(['glob', 'list_files', 'read_file', 'search_files', 'apply_patch']),
    );
  });

  it('offers only execute_command, read_file and edit_file in the simple profile', () =>
    expect(
      names(createRuntime({ cwd: tempDir(), documentsRoot: tempDir(), profile: 'simple', env: {} })),
    ).toEqual(['edit_file', 'execute_command', 'read_file']));

  it('offers enter_plan_mode in Act and exit_plan_mode in Plan', () => {
    const rt = createRuntime({ cwd: tempDir(), documentsRoot: tempDir(), env: {} });
    expect(names(rt)).toContain('enter_plan_mode');
    expect(names(rt)).not.toContain('exit_plan_mode');
    rt.setMode('plan');
    expect(names(rt)).toContain('exit_plan_mode');
    expect(names(rt)).not.toContain('enter_plan_mode');
  });

  it('offers structured_output only to --json-schema runs', () => {
    expect(names(createRuntime({ cwd: tempDir(), documentsRoot: tempDir(), env: {} }))).not.toContain(
      'structured_output',
    );
    expect(
      names(createRuntime({ cwd: tempDir(), documentsRoot: tempDir(), env: {}, jsonSchema: true })),
    ).toContain('structured_output');
  });

  it('keeps ask_followup_question and the plan tools from subagents', () => {
    const rt = createRuntime({ cwd: tempDir(), documentsRoot: tempDir(), env: {}, agentKind: 'subagent' });
    for (const name of ['ask_followup_question', 'make_plan', 'enter_plan_mode'])
      expect(names(rt)).not.toContain(name);
  });

  it('drops glob in the lite profile', () =>
    expect(
      names(createRuntime({ cwd: tempDir(), documentsRoot: tempDir(), profile: 'lite', env: {} })),
    ).not.toContain('glob'));

  it('reads global then workspace settings, the workspace winning', () => {
    const home = tempDir();
    const ws = tempDir();
    mkdirSync(join(home, 'settings'), { recursive: true });
    writeFileSync(join(home, 'settings', 'settings.json'), JSON.stringify({ profile: 'lite', mode: 'plan' }));
    mkdirSync(join(ws, '.agents'));
    writeFileSync(join(ws, '.agents', 'settings.json'), JSON.stringify({ profile: 'simple' }));
    const rt = createRuntime({ cwd: ws, documentsRoot: home, env: {} });
    expect(rt.conditions.profile).toBe('simple');
    expect(rt.conditions.mode).toBe('plan');
  });

  it('lets the command line win over settings', () => {
    const ws = tempDir();
    mkdirSync(join(ws, '.agents'));
    writeFileSync(join(ws, '.agents', 'settings.json'), JSON.stringify({ profile: 'simple' }));
    expect(
      createRuntime({ cwd: ws, documentsRoot: tempDir(), profile: 'standard', env: {} }).conditions.profile,
    ).toBe('standard');
  });

  it('keeps a global deny rule when the workspace allows the same tool', async () => {
    const home = tempDir();
    const ws = tempDir();
    writeFileSync(join(ws, 'a.txt'), 'a');
    mkdirSync(join(home, 'settings'), { recursive: true });
    writeFileSync(
      join(home, 'settings', 'settings.json'),
      JSON.stringify({ permissions: { deny: ['read_file(a.txt)'] } }),
    );
    mkdirSync(join(ws, '.agents'));
    writeFileSync(
      join(ws, '.agents', 'settings.json'),
      JSON.stringify({ permissions: { allow: ['read_file'] } }),
    );
    const r = await createRuntime({ cwd: ws, documentsRoot: home, env: {} }).runTool('read_file', {
      path: 'a.txt',
    });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/denied by rule read_file\(a.txt\)/);
  });

  it('removes a tool that a tool-wide deny rule names', () => {
    const rt = createRuntime({
      cwd: tempDir(),
      documentsRoot: tempDir(),
      settings: { permissions: { deny: ['glob'] } },
      env: {},
    });
    expect(names(rt)).not.toContain('glob');
  });

  it('stops at settings that do not parse, naming the file and line', () => {
    const ws = tempDir();
    mkdirSync(join(ws, '.agents'));
    writeFileSync(join(ws, '.agents', 'settings.json'), '{ not json');
    expect(() => createRuntime({ cwd: ws, documentsRoot: tempDir(), env: {} })).toThrow(SettingsError);
    expect(() => createRuntime({ cwd: ws, documentsRoot: tempDir(), env: {} })).toThrow(
      `${join(ws, '.agents', 'settings.json')}:1:3: expected a "quoted" property name or }`,
    );
  });

  it('takes features from LATHE_FEATURES and reports unknown ones', () => {
    const rt = createRuntime({
      cwd: tempDir(),
      documentsRoot: tempDir(),
      env: { LATHE_FEATURES: 'web,frobnicate' },
    });
    expect(rt.conditions.features.has('web')).toBe(true);
    expect(rt.warnings.join()).toMatch(/unknown feature "frobnicate"/);
  });

  it('refuses a working folder that does not exist', () =>
    expect(() => createRuntime({ cwd: '/no/such/folder' })).toThrow(RuntimeError));

  it('uses $LATHE_HOME as documents-root', () => {
    const home = tempDir();
    expect(createRuntime({ cwd: tempDir(), env: { LATHE_HOME: home } }).documentsRoot).toBe(home);
  });

  it('in headless runs an ask becomes a denial that names the way out', async () => {
    const rt = createRuntime({ cwd: tempDir(), documentsRoot: tempDir(), env: { NODE_ENV: 'test' } });
    const r = await rt.runTool('testing_permission', { path: 'x' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/--approve edit or --yolo/);
  });

  it('--approve lets that category through', async () => {
    const rt = createRuntime({
      cwd: tempDir(),
      documentsRoot: tempDir(),
      approve: ['edit'],
      env: { NODE_ENV: 'test' },
    });
    expect((await rt.runTool('testing_permission', { path: 'x' })).isError).toBe(false);
  });

  it('asks the user when someone is there to ask, and passes a refusal reason on', async () => {
    const asked: string[] = [];
    const rt = createRuntime({
      cwd: tempDir(),
      documentsRoot: tempDir(),
      env: { NODE_ENV: 'test' },
      askUser: async (request) => {
        asked.push(request.tool.name);
        return { approved: false, feedback: 'not today' };
      },
    });
    const r = await rt.runTool('testing_permission', { path: 'x' });
    expect(asked).toEqual(['testing_permission']);
    expect(r.text).toMatch(/declined testing_permission. The user said: not today/);
  });

  it('in Plan mode a tool that changes things asks even under --yolo; back in Act it runs', async () => {
    const rt = createRuntime({
      cwd: tempDir(),
      documentsRoot: tempDir(),
      yolo: true,
      mode: 'plan',
      env: { NODE_ENV: 'test' },
    });
    expect((await rt.runTool('testing_permission', {})).text).toMatch(/Plan mode/);
    rt.setMode('act');
    expect((await rt.runTool('testing_permission', {})).isError).toBe(false);
  });

  it('runs several calls with results in call order', async () => {
    const ws = tempDir();
    writeFileSync(join(ws, 'a.txt'), 'A');
    writeFileSync(join(ws, 'b.txt'), 'B');
    const rt = createRuntime({ cwd: ws, documentsRoot: tempDir(), env: {} });
    const results = await rt.runTools([
      { id: '1', name: 'read_file', input: { path: 'b.txt' } },
      { id: '2', name: 'read_file', input: { path: 'a.txt' } },
    ]);
    expect(results.map((r) => r.text)).toEqual(['1\tB', '1\tA']);
  });
});
