import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeSettings } from '../../src/config/settings.js';
import type { SettingsLayer } from '../../src/config/types.js';
import { RulePermissionEngine } from '../../src/permission/engine.js';
import { Sandbox } from '../../src/permission/sandbox/runner.js';
import type { PermissionSubject } from '../../src/permission/types.js';
import { SandboxGate } from '../../src/runtime/sandbox_gate.js';
import { pathRuleTools } from '../../src/tool/kinds.js';
import { builtinTools } from '../../src/tools/index.js';
import { tempDir } from '../support/runtime_fixtures.js';

function engine(layers: SettingsLayer[] = [], extra: { yolo?: boolean; mode?: 'plan' | 'act' } = {}) {
  const workspace = tempDir();
  const settings = mergeSettings(layers.map((settings, i) => ({ source: `layer${i}`, settings })));
  return new RulePermissionEngine({
    settings,
    workspace,
    documentsRoot: tempDir('lathe-home-'),
    cwd: workspace,
    yolo: extra.yolo,
    mode: extra.mode,
    pathRuleTools: pathRuleTools(builtinTools()),
    canonicalName: (name) => (name === 'bash' ? 'execute_command' : name),
  });
}

const edit = (...paths: string[]): PermissionSubject => ({ kind: 'edit', paths });
const run = (command: string) => ({
  tool: 'execute_command',
  readOnly: false,
  subject: { kind: 'execute', subjects: [command], readOnlyCommand: false } as PermissionSubject,
  strictPlanRefused: false,
});
const write = (path: string) => ({
  tool: 'write_to_file',
  readOnly: false,
  subject: edit(path),
  strictPlanRefused: true,
});

describe('rules added to a running engine', () => {
  it('an added allow rule lets the call it names run without asking, and names its source', () => {
    const e = engine();
    expect(e.decide(run('npm test')).behavior).toBe('ask');
    expect(e.addRules({ allow: ['execute_command(npm test)'] }, 'this session')).toEqual([]);
    expect(e.decide(run('npm test')).behavior).toBe('allow');
    expect(e.rules).toContainEqual({
      tool: 'execute_command',
      pattern: 'npm test',
      action: 'allow',
      source: 'this session',
    });
  });

  it('an added deny rule beats an allow rule from settings', () => {
    const e = engine([{ permissions: { allow: ['execute_command(npm*)'] } }]);
    e.addRules({ deny: ['execute_command(npm publish)'] }, 'this session');
    expect(e.decide(run('npm publish'))).toMatchObject({
      behavior: 'deny',
      reason: expect.stringContaining('this session'),
    });
    expect(e.decide(run('npm test')).behavior).toBe('allow');
  });

  it('a rule that does not parse is left out and reported; the others are added', () => {
    const e = engine();
    const problems = e.addRules({ allow: ['not a rule(', 'read_file'] }, 'here');
    expect(problems).toEqual(['here: rule "not a rule(" is not of the form tool or tool(pattern)']);
    expect(e.rules.map((r) => r.tool)).toEqual(['read_file']);
  });

  it('a rule naming a tool by its alias holds for the tool', () => {
    const e = engine();
    e.addRules({ allow: ['bash(make)'] }, 'here');
    expect(e.decide(run('make')).behavior).toBe('allow');
  });

  it('a removed rule no longer holds', () => {
    const e = engine();
    e.addRules({ allow: ['execute_command(make)'] }, 'this session');
    expect(e.removeRule(e.rules[0])).toBe(true);
    expect(e.decide(run('make')).behavior).toBe('ask');
    expect(e.rules).toEqual([]);
  });
});

describe('asks no rule can silence say so in a field, not only in words', () => {
  it('a protected path is sticky "protected"', () =>
    expect(engine([], { yolo: true }).decide(write('.git/config'))).toMatchObject({
      behavior: 'ask',
      sticky: 'protected',
    }));

  it('a change in Plan mode is sticky "plan"', () =>
    expect(
      engine([{ permissions: { allow: ['write_to_file'] } }], { mode: 'plan' }).decide(write('a.txt')),
    ).toMatchObject({
      behavior: 'ask',
      sticky: 'plan',
    }));

  it('an ordinary ask and an ask rule are not sticky', () => {
    expect(engine().decide(write('a.txt'))).not.toHaveProperty('sticky');
    const e = engine([{ permissions: { ask: ['execute_command(make)'] } }]);
    expect(e.decide(run('make'))).toMatchObject({ behavior: 'ask' });
    expect(e.decide(run('make'))).not.toHaveProperty('sticky');
  });

  it('a command that would run without its sandbox is sticky "sandbox"', async () => {
    const workspace = tempDir();
    const settingsFile = join(workspace, '.agents', 'settings.json');
    const sandbox = new Sandbox({ mode: 'off', network: false, workspace, documentsRoot: tempDir() });
    // An untrusted workspace's own settings may not turn the sandbox off.
    const gate = new SandboxGate({
      sandbox,
      modeSource: settingsFile,
      workspaceSettingsPath: settingsFile,
      workspaceTrusted: false,
      canAsk: true,
      platform: 'linux',
    });
    expect(await gate.decide()).toMatchObject({ behavior: 'ask', sticky: 'sandbox' });
    sandbox.dispose();
  });
});
