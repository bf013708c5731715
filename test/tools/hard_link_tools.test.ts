import { linkSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SettingsLayer } from '../../src/config/types.js';
import { createRuntime, type Runtime } from '../../src/runtime/create_runtime.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

const made: Runtime[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((rt) => rt.dispose()));
});

/** A workspace where innocent.txt is a hard link to secret.txt, under --yolo. */
function runtime(settings: SettingsLayer, files: Record<string, string> = {}) {
  const dir = writeTree({ 'secret.txt': 'TOKEN=hunter2\n', 'a.txt': 'TOKEN=public\n', ...files });
  linkSync(join(dir, 'secret.txt'), join(dir, 'innocent.txt'));
  const rt = createRuntime({
    cwd: dir,
    documentsRoot: tempDir('lathe-home-'),
    env: {},
    settings,
    yolo: true,
  });
  made.push(rt);
  return { dir, rt };
}

const DENY_SECRET: SettingsLayer = { permissions: { deny: ['read_file(secret.txt)'] } };

describe('the file tools judge a hard link as the file it names', () => {
  it('read_file of a hard link to a denied file is refused', async () => {
    const { rt } = runtime(DENY_SECRET);
    const result = await rt.runTool('read_file', { path: 'innocent.txt' });
    expect(result.text).toMatch(
      /^Not run: .*innocent\.txt is a hard link to .*secret\.txt, which is denied by rule/,
    );
    expect(result.text).not.toContain('hunter2');
    expect((await rt.runTool('read_file', { path: 'a.txt' })).text).toContain('TOKEN=public');
  });
  it('write_to_file and edit_file cannot change it', async () => {
    const { dir, rt } = runtime(DENY_SECRET);
    expect((await rt.runTool('write_to_file', { path: 'innocent.txt', content: 'x\n' })).text).toMatch(
      /^Not run: .*hard link/,
    );
    const edit = await rt.runTool('edit_file', {
      path: 'innocent.txt',
      old_string: 'hunter2',
      new_string: 'x',
    });
    expect(edit.text).toMatch(/^Not run: .*hard link/);
    expect(readFileSync(join(dir, 'secret.txt'), 'utf8')).toBe('TOKEN=hunter2\n');
  });
  it('glob and search_files leave the link out of their results', async () => {
    const { rt } = runtime(DENY_SECRET);
    expect((await rt.runTool('glob', { pattern: '*.txt' })).text.split('\n').sort()).toEqual(['a.txt']);
    expect(
      (await rt.runTool('search_files', { regex: 'TOKEN', output_mode: 'files_with_matches' })).text,
    ).toBe('a.txt');
  });
  it('a write through a hard link to .git/config asks as protected, and with no one to ask is not done', async () => {
    const { dir, rt } = runtime({ approvals: { edit: 'allow' } }, { '.git/config': '[core]\n' });
    linkSync(join(dir, '.git/config'), join(dir, 'cfg.txt'));
    const result = await rt.runTool('write_to_file', {
      path: 'cfg.txt',
      content: '[core]\n\tfsmonitor = evil\n',
    });
    expect(result.text).toMatch(/^Not run: .*cfg\.txt is a hard link to .*\.git\/config.*protected/);
    expect(readFileSync(join(dir, '.git/config'), 'utf8')).toBe('[core]\n');
  });
});
