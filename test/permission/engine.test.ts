import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeSettings } from '../../src/config/settings.js';
import type { SettingsLayer } from '../../src/config/types.js';
import { RulePermissionEngine } from '../../src/permission/engine.js';
import type { PermissionSubject } from '../../src/permission/types.js';
import { pathRuleTools } from '../../src/tool/kinds.js';
import { builtinTools } from '../../src/tools/index.js';
import { tempDir } from '../support/runtime_fixtures.js';

function engine(
  layers: SettingsLayer[] = [],
  extra: {
    yolo?: boolean;
    approve?: string[] | 'all';
    mode?: 'plan' | 'act';
    workspace?: string;
    extraRoots?: string[];
  } = {},
) {
  const workspace = extra.workspace ?? tempDir();
  const documentsRoot = tempDir('lathe-home-');
  const settings = mergeSettings(layers.map((settings, i) => ({ source: `layer${i}`, settings })));
  const e = new RulePermissionEngine({
    settings,
    workspace,
    documentsRoot,
    cwd: workspace,
    yolo: extra.yolo,
    approve: extra.approve as never,
    mode: extra.mode,
    extraRoots: extra.extraRoots,
    pathRuleTools: pathRuleTools(builtinTools()),
  });
  return { e, workspace, documentsRoot };
}

const read = (...paths: string[]): PermissionSubject => ({ kind: 'read', paths });
const edit = (...paths: string[]): PermissionSubject => ({ kind: 'edit', paths });
const exec = (readOnlyCommand: boolean, ...subjects: string[]): PermissionSubject => ({
  kind: 'execute',
  subjects,
  readOnlyCommand,
});
const q = (tool: string, subject: PermissionSubject, readOnly = subject.kind === 'read') => ({
  tool,
  readOnly,
  subject,
  strictPlanRefused: ['write_to_file', 'replace_in_file', 'apply_patch', 'new_rule'].includes(tool),
});

describe('approval categories and their defaults', () => {
  it('allows reads inside the workspace', () =>
    expect(engine().e.decide(q('read_file', read('a.txt'))).behavior).toBe('allow'));
  it('asks for reads outside the workspace (their own category)', () => {
    const d = engine().e.decide(q('read_file', read('/etc/hostname')));
    expect(d).toMatchObject({ behavior: 'ask', category: 'readOutside' });
  });
  it('asks for edits inside', () =>
    expect(engine().e.decide(q('write_to_file', edit('a.txt')))).toMatchObject({
      behavior: 'ask',
      category: 'edit',
    }));
  it('asks for edits outside as editOutside', () =>
    expect(engine().e.decide(q('write_to_file', edit('/tmp/x.txt')))).toMatchObject({
      behavior: 'ask',
      category: 'editOutside',
    }));
  it('allows safe commands', () =>
    expect(engine().e.decide(q('execute_command', exec(true, 'ls'), true)).behavior).toBe('allow'));
  it('asks for other commands', () =>
    expect(engine().e.decide(q('execute_command', exec(false, 'make')))).toMatchObject({
      behavior: 'ask',
      category: 'executeAll',
    }));
  it('asks for web, browser and MCP', () => {
    const { e } = engine();
    for (const kind of ['web', 'browser', 'mcp'] as const) {
      expect(e.decide(q('t', { kind }, true))).toMatchObject({ behavior: 'ask', category: kind });
    }
  });
  it('a category set to allow in settings allows', () =>
    expect(engine([{ approvals: { edit: 'allow' } }]).e.decide(q('write_to_file', edit('a'))).behavior).toBe(
      'allow',
    ));
  it('a category set to deny denies', () =>
    expect(engine([{ approvals: { read: 'deny' } }]).e.decide(q('read_file', read('a'))).behavior).toBe(
      'deny',
    ));
});

describe('folders added with --add-dir', () => {
  it('are read and edited as the workspace is, not as outside', () => {
    const other = tempDir('lathe-other-');
    const { e } = engine([], { extraRoots: [other] });
    expect(e.decide(q('read_file', read(join(other, 'notes.md'))))).toEqual({ behavior: 'allow' });
    expect(e.decide(q('write_to_file', edit(join(other, 'new.md'))))).toMatchObject({
      behavior: 'ask',
      category: 'edit',
    });
  });

  it('leave every other folder outside, and deny rules and protected paths still hold', () => {
    const other = tempDir('lathe-other-');
    const { e } = engine([{ permissions: { deny: [`read_file(${other}/secret/**)`] } }], {
      extraRoots: [other],
    });
    expect(e.decide(q('read_file', read('/etc/hostname')))).toMatchObject({ category: 'readOutside' });
    expect(e.decide(q('read_file', read(join(other, 'secret', 'key'))))).toMatchObject({ behavior: 'deny' });
    expect(e.decide(q('write_to_file', edit(join(other, '.git', 'config'))))).toMatchObject({
      behavior: 'ask',
      reason: expect.stringMatching(/protected/),
    });
  });

  it('are followed through symlinks: a link into an added folder counts as inside it', () => {
    const other = tempDir('lathe-other-');
    const { e, workspace } = engine([], { extraRoots: [other] });
    symlinkSync(other, join(workspace, 'link'));
    expect(e.decide(q('read_file', read(join(workspace, 'link', 'a.txt'))))).toEqual({ behavior: 'allow' });
  });
});

describe('rules: deny beats ask beats allow, whatever the order', () => {
  it('deny wins over allow written later', () => {
    const { e } = engine([
      { permissions: { deny: ['read_file(secret.txt)'] } },
      { permissions: { allow: ['read_file'] } },
    ]);
    expect(e.decide(q('read_file', read('secret.txt'))).behavior).toBe('deny');
  });
  it('deny rules from an earlier level survive a later allow', () => {
    const { e } = engine([
      { permissions: { deny: ['web_fetch'] } },
      { permissions: { allow: ['web_fetch'] } },
    ]);
    expect(e.decide(q('web_fetch', { kind: 'web', subjects: ['example.com'] }, true)).behavior).toBe('deny');
  });
  it('ask wins over allow', () => {
    const { e } = engine([
      { permissions: { allow: ['execute_command(git *)'], ask: ['execute_command(git push*)'] } },
    ]);
    expect(e.decide(q('execute_command', exec(false, 'git push origin main'))).behavior).toBe('ask');
    expect(e.decide(q('execute_command', exec(false, 'git commit -m x'))).behavior).toBe('allow');
  });
  it('an allow rule lifts a category that asks', () => {
    const { e } = engine([{ permissions: { allow: ['execute_command(npm test*)'] } }]);
    expect(e.decide(q('execute_command', exec(false, 'npm test -- --watch=false'))).behavior).toBe('allow');
  });
  it('an allow rule for one subcommand does not cover a chain', () => {
    const { e } = engine([{ permissions: { allow: ['execute_command(npm test*)'] } }]);
    expect(e.decide(q('execute_command', exec(false, 'npm test', 'rm -rf x'))).behavior).toBe('ask');
  });
  it('a deny rule matches any subcommand of a chain', () => {
    const { e } = engine([
      { permissions: { deny: ['execute_command(rm *)'] }, approvals: { executeAll: 'allow' } },
    ]);
    expect(e.decide(q('execute_command', exec(false, 'ls', 'rm -rf x'))).behavior).toBe('deny');
  });
  it('a plain command pattern matches the command and its longer forms, not a prefix of a word', () => {
    const { e } = engine([
      { permissions: { deny: ['execute_command(git push)'] }, approvals: { executeAll: 'allow' } },
    ]);
    expect(e.decide(q('execute_command', exec(false, 'git push --force'))).behavior).toBe('deny');
    expect(e.decide(q('execute_command', exec(false, 'git pushx'))).behavior).toBe('allow');
  });
  it('MCP rules name server__tool or server__*', () => {
    const { e } = engine([{ permissions: { allow: ['github__*'] } }]);
    expect(e.decide(q('github__create_issue', { kind: 'mcp' })).behavior).toBe('allow');
    expect(e.decide(q('slack__post', { kind: 'mcp' })).behavior).toBe('ask');
  });
  it('web rules are globs on the host', () => {
    const { e } = engine([{ permissions: { allow: ['web_fetch(*.example.com)'] } }]);
    expect(e.decide(q('web_fetch', { kind: 'web', subjects: ['docs.example.com'] }, true)).behavior).toBe(
      'allow',
    );
    expect(e.decide(q('web_fetch', { kind: 'web', subjects: ['evil.com'] }, true)).behavior).toBe('ask');
  });
  it('isToolDenied only for tool-wide deny rules', () => {
    const { e } = engine([{ permissions: { deny: ['web_fetch', 'read_file(**/.env)'] } }]);
    expect(e.isToolDenied('web_fetch')).toBe(true);
    expect(e.isToolDenied('read_file')).toBe(false);
  });
  it('reports a malformed rule as a warning', () => {
    const { e } = engine([{ permissions: { deny: ['read_file(oops'] } }]);
    expect(e.warnings.join()).toMatch(/not of the form/);
  });
});

describe('path rules match the resolved real path', () => {
  const denyEnv = [{ permissions: { deny: ['read_file(**/.env)'] } }];
  it('denies the file named directly', () =>
    expect(engine(denyEnv).e.decide(q('read_file', read('.env'))).behavior).toBe('deny'));
  it('denies a/../.env', () =>
    expect(engine(denyEnv).e.decide(q('read_file', read('a/../.env'))).behavior).toBe('deny'));
  it('denies the absolute path', () => {
    const { e, workspace } = engine(denyEnv);
    expect(e.decide(q('read_file', read(join(workspace, '.env')))).behavior).toBe('deny');
  });
  it('denies a nested .env', () =>
    expect(engine(denyEnv).e.decide(q('read_file', read('config/.env'))).behavior).toBe('deny'));
  it('denies a .env outside the workspace too', () =>
    expect(engine(denyEnv).e.decide(q('read_file', read('/somewhere/else/.env'))).behavior).toBe('deny'));
  it('denies a symlink that points at the denied file', () => {
    const workspace = tempDir();
    writeFileSync(join(workspace, '.env'), 'SECRET=1');
    symlinkSync(join(workspace, '.env'), join(workspace, 'innocent.txt'));
    const { e } = engine(denyEnv, { workspace });
    expect(e.decide(q('read_file', read('innocent.txt'))).behavior).toBe('deny');
  });
  it('a symlink out of the workspace counts as outside', () => {
    const workspace = tempDir();
    const outside = tempDir();
    writeFileSync(join(outside, 'x.txt'), 'x');
    symlinkSync(outside, join(workspace, 'link'));
    const { e } = engine([], { workspace });
    expect(e.decide(q('read_file', read('link/x.txt')))).toMatchObject({
      behavior: 'ask',
      category: 'readOutside',
    });
  });
  it('an allow rule does not follow a symlink name to another file', () => {
    const workspace = tempDir();
    mkdirSync(join(workspace, 'src'));
    writeFileSync(join(workspace, 'secret.key'), 'k');
    symlinkSync(join(workspace, 'secret.key'), join(workspace, 'src', 'ok.ts'));
    const { e } = engine([{ permissions: { allow: ['write_to_file(src/**)'] } }], { workspace });
    expect(e.decide(q('write_to_file', edit('src/ok.ts'))).behavior).toBe('ask');
    expect(e.decide(q('write_to_file', edit('src/real.ts'))).behavior).toBe('allow');
  });
});

describe('protected paths always ask', () => {
  it('.git/ asks even under --yolo', () =>
    expect(engine([], { yolo: true }).e.decide(q('write_to_file', edit('.git/config'))).behavior).toBe(
      'ask',
    ));
  it('.agents/ asks even with an allow rule and edit allowed', () => {
    const { e } = engine([{ approvals: { edit: 'allow' }, permissions: { allow: ['write_to_file'] } }]);
    expect(e.decide(q('write_to_file', edit('.agents/settings.json'))).behavior).toBe('ask');
  });
  it('shell rc files ask', () =>
    expect(engine([], { yolo: true }).e.decide(q('write_to_file', edit('~/.bashrc'))).behavior).toBe('ask'));
  it('reading a protected path is an ordinary read', () =>
    expect(engine().e.decide(q('read_file', read('.git/HEAD'))).behavior).toBe('allow'));
  it('a deny rule still denies under --yolo', () => {
    const { e } = engine([{ permissions: { deny: ['write_to_file(*.lock)'] } }], { yolo: true });
    expect(e.decide(q('write_to_file', edit('x.lock'))).behavior).toBe('deny');
  });
});

describe('--yolo and --approve', () => {
  it('--yolo answers an ordinary ask with yes', () =>
    expect(engine([], { yolo: true }).e.decide(q('write_to_file', edit('a.txt'))).behavior).toBe('allow'));
  it('--approve edit answers edits, not commands', () => {
    const { e } = engine([], { approve: ['edit'] });
    expect(e.decide(q('write_to_file', edit('a.txt'))).behavior).toBe('allow');
    expect(e.decide(q('execute_command', exec(false, 'make'))).behavior).toBe('ask');
  });
  it('--approve all answers every category', () =>
    expect(engine([], { approve: 'all' }).e.decide(q('execute_command', exec(false, 'make'))).behavior).toBe(
      'allow',
    ));
});

describe('Plan mode and Strict Plan Mode', () => {
  it('in Plan mode a tool that is not read-only asks, even under --yolo and with allow rules', () => {
    const { e } = engine([{ approvals: { edit: 'allow' }, permissions: { allow: ['edit_file'] } }], {
      yolo: true,
      mode: 'plan',
    });
    expect(e.decide(q('edit_file', edit('a.txt'))).behavior).toBe('ask');
  });
  it('in Plan mode read-only tools run as usual', () =>
    expect(engine([], { mode: 'plan' }).e.decide(q('read_file', read('a'))).behavior).toBe('allow'));
  it('the plan file is the exception', () => {
    const { e } = engine([{ approvals: { edit: 'allow' } }], { mode: 'plan' });
    expect(e.decide(q('write_to_file', { kind: 'edit', paths: ['plan.md'], planFile: true })).behavior).toBe(
      'allow',
    );
  });
  it('Strict Plan Mode refuses write_to_file, replace_in_file, apply_patch and new_rule outright', () => {
    const { e } = engine([{ strictPlanMode: true }], { mode: 'plan', yolo: true });
    for (const tool of ['write_to_file', 'replace_in_file', 'apply_patch', 'new_rule']) {
      expect(e.decide(q(tool, edit('a.txt')))).toMatchObject({ behavior: 'deny' });
    }
  });
  it('Strict Plan Mode still only asks for edit_file', () => {
    const { e } = engine([{ strictPlanMode: true }], { mode: 'plan' });
    expect(e.decide(q('edit_file', edit('a.txt'))).behavior).toBe('ask');
  });
  it('leaving Plan mode restores the usual answers', () => {
    const { e } = engine([{ approvals: { edit: 'allow' } }], { mode: 'plan' });
    e.setMode('act');
    expect(e.decide(q('write_to_file', edit('a.txt'))).behavior).toBe('allow');
  });
});

describe('allow patterns end at word boundaries', () => {
  const echoAllowed = [{ permissions: { allow: ['execute_command(echo*)'] } }];
  it('echo* allows echo and echo with arguments', () => {
    const { e } = engine(echoAllowed);
    expect(e.decide(q('execute_command', exec(false, 'echo'))).behavior).toBe('allow');
    expect(e.decide(q('execute_command', exec(false, 'echo hi there'))).behavior).toBe('allow');
  });
  it('echo* does not allow echoevil', () =>
    expect(engine(echoAllowed).e.decide(q('execute_command', exec(false, 'echoevil x'))).behavior).toBe(
      'ask',
    ));
  it('npm test:* does not allow npm testevil', () => {
    const { e } = engine([{ permissions: { allow: ['execute_command(npm test:*)'] } }]);
    expect(e.decide(q('execute_command', exec(false, 'npm test -- --run'))).behavior).toBe('allow');
    expect(e.decide(q('execute_command', exec(false, 'npm testevil'))).behavior).toBe('ask');
  });
  it('a * after a non-word character is an ordinary wildcard', () => {
    const { e } = engine([
      { permissions: { allow: ['execute_command(./scripts/*)', 'execute_command(make test-*)'] } },
    ]);
    expect(e.decide(q('execute_command', exec(false, './scripts/build.sh'))).behavior).toBe('allow');
    expect(e.decide(q('execute_command', exec(false, 'make test-unit'))).behavior).toBe('allow');
  });
});

describe('a path deny rule holds for every tool that reads or writes the path', () => {
  const denyEnv = [{ permissions: { deny: ['read_file(**/.env)'] }, approvals: { edit: 'allow' as const } }];
  it('read_file(**/.env) denies every reading tool', () => {
    const { e } = engine(denyEnv);
    for (const tool of ['search_files', 'glob', 'list_files', 'list_code_definition_names', 'monitor']) {
      expect(e.decide(q(tool, read('config/.env'))).behavior, tool).toBe('deny');
    }
  });
  it('and every tool that changes it (they read what they change)', () => {
    const { e } = engine(denyEnv, { yolo: true });
    for (const tool of ['edit_file', 'write_to_file', 'replace_in_file', 'apply_patch', 'notebook_edit']) {
      expect(e.decide(q(tool, edit('.env'))).behavior, tool).toBe('deny');
    }
  });
  it('write_to_file(secrets/**) denies every editing tool but not reading', () => {
    const { e } = engine([{ permissions: { deny: ['write_to_file(secrets/**)'] } }], { yolo: true });
    for (const tool of ['edit_file', 'apply_patch', 'notebook_edit', 'replace_in_file']) {
      expect(e.decide(q(tool, edit('secrets/key'))).behavior, tool).toBe('deny');
    }
    expect(e.decide(q('read_file', read('secrets/key'))).behavior).toBe('allow');
  });
  it('an allow rule stays with its own tool', () => {
    const { e } = engine([{ permissions: { allow: ['write_to_file(docs/**)'] } }]);
    expect(e.decide(q('edit_file', edit('docs/a.md'))).behavior).toBe('ask');
  });
  it('decidePath answers for one path as decide would for the call', () => {
    const { e } = engine(denyEnv);
    expect(e.decidePath('search_files', 'read', '.env').behavior).toBe('deny');
    expect(e.decidePath('search_files', 'read', 'a.txt').behavior).toBe('allow');
    expect(e.decidePath('replace_text', 'edit', '.agents/settings.json').behavior).toBe('ask');
  });
  it('readDenyPatterns lists the patterns that guard reading', () => {
    const { e } = engine([
      {
        permissions: { deny: ['read_file(**/.env)', 'glob(keys/**)', 'write_to_file(out/**)', 'web_fetch'] },
      },
    ]);
    expect(e.readDenyPatterns()).toEqual(['**/.env', 'keys/**']);
  });
});

describe('asks that --yolo cannot answer say how they can be', () => {
  it('a protected path says only a person can approve it', () => {
    const d = engine([], { yolo: true }).e.decide(q('write_to_file', edit('.git/config')));
    expect(d).toMatchObject({ behavior: 'ask', hint: expect.stringMatching(/even under --yolo/) });
  });
  it('Plan mode says so', () => {
    const d = engine([], { yolo: true, mode: 'plan' }).e.decide(q('write_to_file', edit('a.txt')));
    expect(d).toMatchObject({ behavior: 'ask', hint: expect.stringMatching(/Plan mode/) });
  });
  it('an ordinary ask has no hint (the --approve / --yolo advice applies)', () => {
    const d = engine().e.decide(q('write_to_file', edit('a.txt')));
    expect(d).toMatchObject({ behavior: 'ask' });
    expect(d).not.toHaveProperty('hint');
  });
});
