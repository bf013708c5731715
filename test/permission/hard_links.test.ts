import { linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeSettings } from '../../src/config/settings.js';
import type { SettingsLayer } from '../../src/config/types.js';
import { RulePermissionEngine } from '../../src/permission/engine.js';
import { LinkedNames, linkedFile } from '../../src/permission/linked_names.js';
import { classifyShellCommand } from '../../src/permission/shell/index.js';
import type { PermissionSubject } from '../../src/permission/types.js';
import { pathRuleTools } from '../../src/tool/kinds.js';
import { builtinTools } from '../../src/tools/index.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

function engine(workspace: string, layer: SettingsLayer = {}, yolo = false) {
  return new RulePermissionEngine({
    settings: mergeSettings([{ source: 'settings', settings: layer }]),
    workspace,
    documentsRoot: tempDir('lathe-home-'),
    cwd: workspace,
    yolo,
    pathRuleTools: pathRuleTools(builtinTools()),
  });
}

const deny = (...rules: string[]): SettingsLayer => ({ permissions: { deny: rules } });
const read = (...paths: string[]): PermissionSubject => ({ kind: 'read', paths });
const edit = (...paths: string[]): PermissionSubject => ({ kind: 'edit', paths });
const ask = (e: RulePermissionEngine, tool: string, subject: PermissionSubject) =>
  e.decide({ tool, readOnly: subject.kind === 'read', subject, strictPlanRefused: false });

async function command(e: RulePermissionEngine, text: string) {
  const classified = await classifyShellCommand(text);
  return ask(e, 'execute_command', {
    kind: 'execute',
    subjects: classified.subcommands.map((s) => s.text),
    commands: classified.subcommands,
    readOnlyCommand: classified.readOnly,
  });
}

/** A workspace holding `secret.txt` and `innocent.txt`, one file under two names. */
function linkedSecret() {
  const workspace = writeTree({ 'secret.txt': 'TOKEN=hunter2\n', 'a.txt': 'a\n' });
  linkSync(join(workspace, 'secret.txt'), join(workspace, 'innocent.txt'));
  return workspace;
}

describe('a deny rule holds for every name of the file', () => {
  it('a hard link to a read-denied file is denied for reading and for writing, even under --yolo', () => {
    const workspace = linkedSecret();
    const e = engine(workspace, deny('read_file(secret.txt)'), true);
    const reading = ask(e, 'read_file', read('innocent.txt'));
    expect(reading).toMatchObject({ behavior: 'deny' });
    expect(reading.behavior === 'deny' && reading.reason).toMatch(
      /innocent\.txt is a hard link to .*secret\.txt, which is denied by rule read_file\(secret\.txt\)/,
    );
    expect(ask(e, 'write_to_file', edit('innocent.txt')).behavior).toBe('deny');
    expect(ask(e, 'read_file', read('a.txt')).behavior).toBe('allow');
  });
  it('a glob rule finds the denied name wherever it lies in the workspace', () => {
    const workspace = writeTree({ 'config/deep/.env': 'SECRET=1\n' });
    linkSync(join(workspace, 'config/deep/.env'), join(workspace, 'notes.txt'));
    const e = engine(workspace, deny('read_file(**/.env)'));
    expect(ask(e, 'read_file', read('notes.txt')).behavior).toBe('deny');
  });
  it('a folder rule: a link out of secrets/ is denied', () => {
    const workspace = writeTree({ 'secrets/key': 'k\n' });
    linkSync(join(workspace, 'secrets/key'), join(workspace, 'key.txt'));
    expect(ask(engine(workspace, deny('read_file(secrets/**)')), 'read_file', read('key.txt')).behavior).toBe(
      'deny',
    );
  });
  it('an absolute rule: a link to a denied file outside the workspace is denied', () => {
    const workspace = tempDir();
    const keys = writeTree({ id_key: 'private\n' });
    linkSync(join(keys, 'id_key'), join(workspace, 'readme.txt'));
    const e = engine(workspace, deny(`read_file(${keys}/**)`), true);
    expect(ask(e, 'read_file', read('readme.txt')).behavior).toBe('deny');
  });
  it('a link outside the workspace to a denied file inside is denied, not only asked', () => {
    const workspace = linkedSecret();
    const outside = join(tempDir(), 'copy.txt');
    linkSync(join(workspace, 'secret.txt'), outside);
    expect(
      ask(engine(workspace, deny('read_file(secret.txt)'), true), 'read_file', read(outside)).behavior,
    ).toBe('deny');
  });
  it('a write-deny rule holds for writing through a link; reading stays open', () => {
    const workspace = writeTree({ 'secrets/key': 'k\n' });
    linkSync(join(workspace, 'secrets/key'), join(workspace, 'out.txt'));
    const e = engine(workspace, deny('write_to_file(secrets/**)'), true);
    expect(ask(e, 'write_to_file', edit('out.txt')).behavior).toBe('deny');
    expect(ask(e, 'read_file', read('out.txt')).behavior).toBe('allow');
  });
  it('shell commands that name the link are refused', async () => {
    const e = engine(linkedSecret(), deny('read_file(secret.txt)'), true);
    expect((await command(e, 'cat innocent.txt')).behavior).toBe('deny');
    expect((await command(e, 'echo x >> innocent.txt')).behavior).toBe('deny');
    expect((await command(e, 'cat a.txt')).behavior).toBe('allow');
  });
  it('a symlink to the hard link is followed to it, and denied', () => {
    const workspace = linkedSecret();
    symlinkSync(join(workspace, 'innocent.txt'), join(workspace, 'pointer.txt'));
    expect(
      ask(engine(workspace, deny('read_file(secret.txt)')), 'read_file', read('pointer.txt')).behavior,
    ).toBe('deny');
  });
  it('a link made after an earlier check is seen', () => {
    const workspace = writeTree({ 'a.txt': 'a\n', 'secret.txt': 'TOKEN\n' });
    linkSync(join(workspace, 'a.txt'), join(workspace, 'b.txt'));
    const e = engine(workspace, deny('read_file(**/secret*)'));
    expect(ask(e, 'read_file', read('innocent.txt')).behavior).toBe('allow');
    expect(ask(e, 'read_file', read('a.txt')).behavior).toBe('allow');
    linkSync(join(workspace, 'secret.txt'), join(workspace, 'innocent.txt'));
    expect(ask(e, 'read_file', read('innocent.txt')).behavior).toBe('deny');
    // a.txt's other name becomes denied: the link changes the file's ctime, so it is looked at again.
    linkSync(join(workspace, 'a.txt'), join(workspace, 'secret-a.txt'));
    expect(ask(e, 'read_file', read('a.txt')).behavior).toBe('deny');
  });
  it('a rule added while running applies to links at once', () => {
    const workspace = linkedSecret();
    const e = engine(workspace);
    expect(ask(e, 'read_file', read('innocent.txt')).behavior).toBe('allow');
    e.addRules({ deny: ['read_file(secret.txt)'] }, 'session');
    expect(ask(e, 'read_file', read('innocent.txt')).behavior).toBe('deny');
  });
  it('folders are not hard links: a folder with subfolders is judged by its name only', () => {
    const workspace = writeTree({ 'src/lib/a.ts': '', 'src/b.ts': '', '.env': 'x' });
    expect(ask(engine(workspace, deny('read_file(**/.env)')), 'list_files', read('src')).behavior).toBe(
      'allow',
    );
  });
});

describe('a protected file is protected under every name', () => {
  it('a hard link to .git/config asks as protected for writes, even under --yolo', async () => {
    const workspace = writeTree({ '.git/config': '[core]\n', 'a.txt': '' });
    linkSync(join(workspace, '.git/config'), join(workspace, 'cfg.txt'));
    const e = engine(workspace, { approvals: { edit: 'allow', executeAll: 'allow' } }, true);
    const write = ask(e, 'write_to_file', edit('cfg.txt'));
    expect(write).toMatchObject({ behavior: 'ask', sticky: 'protected' });
    expect(write.behavior === 'ask' && write.reason).toMatch(
      /cfg\.txt is a hard link to .*\.git\/config, which is a path inside \.git/,
    );
    expect(await command(e, 'echo x >> cfg.txt')).toMatchObject({ behavior: 'ask', sticky: 'protected' });
    expect(ask(e, 'write_to_file', edit('a.txt')).behavior).toBe('allow');
    // Reading it is no change.
    expect(ask(e, 'read_file', read('cfg.txt')).behavior).toBe('allow');
  });
  it('so is a link to .agents/ settings', () => {
    const workspace = writeTree({ '.agents/settings.json': '{}' });
    linkSync(join(workspace, '.agents/settings.json'), join(workspace, 's.json'));
    expect(ask(engine(workspace, {}, true), 'write_to_file', edit('s.json'))).toMatchObject({
      sticky: 'protected',
    });
  });
});

describe('looking for a file’s other names', () => {
  const places = (folder: string) => ({
    key: folder,
    folders: [folder],
    files: [],
    guarded: (path: string) => path.endsWith('.env'),
  });
  it('finds the guarded names of a file by its device and inode', () => {
    const dir = writeTree({ 'x/.env': 's', 'y.txt': '' });
    linkSync(join(dir, 'x/.env'), join(dir, 'copy'));
    const file = linkedFile(join(dir, 'copy'))!;
    expect(new LinkedNames().guardedNames(file, places(dir))).toEqual([join(dir, 'x/.env')]);
    expect(linkedFile(join(dir, 'y.txt'))).toBeUndefined();
  });
  it('cannot clear a file when the places hold more entries than it looks through', () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 20; i++) files[`f${i}`] = '';
    const dir = writeTree(files);
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub/.env'), 's');
    linkSync(join(dir, 'f0'), join(dir, 'f0-copy'));
    const file = linkedFile(join(dir, 'f0'))!;
    expect(new LinkedNames(10).guardedNames(file, places(dir))).toBeUndefined();
    expect(new LinkedNames(100).guardedNames(file, places(dir))).toEqual([]);
  });
});
