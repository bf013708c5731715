import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSettings } from '../../../src/config/load.js';
import { lathe } from '../../support/cli.js';
import { closeFakeServers, runHeadless } from '../../support/headless_run.js';
import { tempDir, writeTree } from '../../support/runtime_fixtures.js';

afterEach(closeFakeServers);

function setUp() {
  const dir = writeTree({
    '.agents/rules/python.md': '---\npaths: "**/*.py"\n---\nPYTHON-RULE',
    '.agents/rules/broken.md': '---\npaths: 3\n---\nx',
    'CLAUDE.md': 'CLAUDE-RULE',
    'app.py': 'x = 1\n',
  });
  const home = writeTree({
    'rules/mine.md': 'USER-RULE',
    'settings/settings.json': JSON.stringify({ rules: { disabled: ['CLAUDE.md'] } }),
  });
  return { dir, home, env: { LATHE_HOME: home } };
}

describe('lathe rules list', () => {
  it('lists each rule file in prompt order with why it is in the prompt or not', () => {
    const { dir, home, env } = setUp();
    const { code, stdout, stderr } = lathe(['rules', 'list'], { cwd: dir, env });
    expect(code).toBe(0);
    const mine = join(home, 'rules/mine.md');
    const width = mine.length;
    expect(stdout).toBe(
      [
        `on   ${mine}  always`,
        `off  ${'.agents/rules/python.md'.padEnd(width)}  waiting for **/*.py`,
        `off  ${'CLAUDE.md'.padEnd(width)}  disabled in settings (rules.disabled)`,
        '',
        '3 rule files, 1 in the prompt at start',
        '',
      ].join('\n'),
    );
    expect(stderr).toBe(
      'lathe: warning: .agents/rules/broken.md: "paths" must be a glob or a list of globs (e.g. "src/**/*.ts"): not loaded\n',
    );
  });

  it('prints JSON for scripts', () => {
    const { dir, env } = setUp();
    const { code, stdout } = lathe(['rules', 'list', '--json'], { cwd: dir, env });
    expect(code).toBe(0);
    const rows = JSON.parse(stdout);
    expect(rows[1]).toEqual({
      name: '.agents/rules/python.md',
      path: join(dir, '.agents/rules/python.md'),
      place: 'workspace',
      paths: ['**/*.py'],
      active: false,
      state: 'waiting',
      why: 'waiting for **/*.py',
    });
  });

  it('refuses a rules.disabled that is not a list, naming the file and the key', () => {
    const { dir } = setUp();
    const home = writeTree({
      'settings/settings.json': JSON.stringify({ rules: { disabled: 'CLAUDE.md' } }),
    });
    const { code, stdout, stderr } = lathe(['rules', 'list'], { cwd: dir, env: { LATHE_HOME: home } });
    expect(code).not.toBe(0);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toEqual([
      `lathe: ${join(home, 'settings/settings.json')}: "rules.disabled" must be a list of strings (found "CLAUDE.md")`,
    ]);
  });
});

describe('rules.disabled in settings', () => {
  it('adds up across settings files, and an untrusted folder may not turn rules off', () => {
    const workspace = tempDir();
    const documentsRoot = tempDir('lathe-home-');
    mkdirSync(join(workspace, '.agents'));
    mkdirSync(join(documentsRoot, 'settings'));
    writeFileSync(join(documentsRoot, 'settings/settings.json'), '{"rules": {"disabled": ["a"]}}');
    writeFileSync(join(workspace, '.agents/settings.json'), '{"rules": {"disabled": ["b", "a"]}}');
    expect(loadSettings({ documentsRoot, workspace, workspaceTrusted: true }).disabledRules).toEqual([
      'a',
      'b',
    ]);
    const untrusted = loadSettings({ documentsRoot, workspace, workspaceTrusted: false });
    expect(untrusted.disabledRules).toEqual(['a']);
    expect(untrusted.ignoredUntrusted).toContain('rules.disabled');
  });
});

describe('rules in lathe -p', () => {
  it('sends other tools’ rule files, and a conditional rule once its file is read; bad files warn on stderr', async () => {
    const { dir, home } = setUp();
    const r = await runHeadless(
      dir,
      [{ toolCalls: [{ name: 'read_file', input: { path: 'app.py' } }] }, { text: 'done' }],
      [],
      {
        home,
      },
    );
    expect(r.code).toBe(0);
    const [first, second] = r.requests.map((q) => q.systemText ?? '');
    expect(first).toContain('USER-RULE');
    expect(first).not.toContain('CLAUDE-RULE');
    expect(first).not.toContain('PYTHON-RULE');
    expect(second).toContain(
      'Rule from .agents/rules/python.md (for files matching **/*.py) (follow it):\nPYTHON-RULE',
    );
    expect(r.stderr).toContain('.agents/rules/broken.md: "paths" must be a glob or a list of globs');
  });

  it('a rule for a folder joins the very next request after a read or an edit there, once', async () => {
    const dir = writeTree({
      '.agents/rules/special.md': '---\npaths: ["src/special/**"]\n---\nSPECIAL-RULE',
      '.agents/rules/generated.md': '---\npaths: src/gen/**/*.ts\n---\nGENERATED-RULE',
      'src/special/x.ts': 'export const x = 1;\n',
      'src/special/y.ts': 'export const y = 2;\n',
    });
    const read = (path: string) => ({ toolCalls: [{ name: 'read_file', input: { path } }] });
    const write = { toolCalls: [{ name: 'write_to_file', input: { path: 'src/gen/a.ts', content: 'x\n' } }] };
    const r = await runHeadless(
      dir,
      [read('src/special/x.ts'), read('src/special/y.ts'), write, { text: 'done' }],
      ['--yolo'],
    );
    expect(r.code).toBe(0);
    const bodies = r.requests.map((q) => JSON.stringify(q.body));
    const count = (body: string, text: string) => body.split(text).length - 1;
    expect(bodies.map((b) => count(b, 'SPECIAL-RULE'))).toEqual([0, 1, 1, 1]);
    expect(bodies.map((b) => count(b, 'GENERATED-RULE'))).toEqual([0, 0, 0, 1]);
    expect(r.requests[1].systemText).toContain(
      'Rule from .agents/rules/special.md (for files matching src/special/**) (follow it):\nSPECIAL-RULE',
    );
  });
});
