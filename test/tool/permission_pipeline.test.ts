import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SettingsLayer } from '../../src/config/types.js';
import { createRuntime, type Runtime } from '../../src/runtime/create_runtime.js';
import { testNeeds } from '../support/required_programs.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

const made: Runtime[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((rt) => rt.dispose()));
});

function runtime(
  files: Record<string, string>,
  options: Omit<NonNullable<Parameters<typeof createRuntime>[0]>, 'cwd'> = {},
) {
  const dir = writeTree(files);
  const rt = createRuntime({ cwd: dir, documentsRoot: tempDir('lathe-home-'), env: {}, ...options });
  made.push(rt);
  return { dir, rt };
}

const DENY_ENV: SettingsLayer = { permissions: { deny: ['read_file(**/.env)'] } };
const FILES = { '.env': 'TOKEN=hunter2\n', 'config/.env': 'TOKEN=hunter2\n', 'a.txt': 'TOKEN=public\n' };

describe('a read deny rule holds for search, glob and listings', () => {
  it('search_files leaves out the lines of denied files, in every output mode', async () => {
    const { rt } = runtime(FILES, { settings: DENY_ENV });
    const content = await rt.runTool('search_files', { regex: 'TOKEN', context: 1 });
    expect(content.text).toBe('a.txt:1:TOKEN=public');
    const files = await rt.runTool('search_files', { regex: 'TOKEN', output_mode: 'files_with_matches' });
    expect(files.text).toBe('a.txt');
    const counts = await rt.runTool('search_files', { regex: 'TOKEN', output_mode: 'count' });
    expect(counts.text).toBe('a.txt:1');
  });
  it('context groups of kept files stay apart, with no separator left by a denied one', async () => {
    const { rt } = runtime({ ...FILES, 'b.txt': 'x\nTOKEN\n' }, { settings: DENY_ENV });
    const groups = (await rt.runTool('search_files', { regex: 'TOKEN', context: 1 })).text.split('\n--\n');
    // ripgrep searches files in parallel: the groups come in either order.
    expect(groups.sort()).toEqual(['a.txt:1:TOKEN=public', 'b.txt-1-x\nb.txt:2:TOKEN']);
  });
  it('search_files output keeps its usual form when nothing is denied', async () => {
    const { rt } = runtime({ 'a.txt': 'x\nTOKEN\ny\n' });
    expect((await rt.runTool('search_files', { regex: 'TOKEN', context: 1 })).text).toBe(
      'a.txt-1-x\na.txt:2:TOKEN\na.txt-3-y',
    );
  });
  it('search_files on the denied file itself is refused', async () => {
    const { rt } = runtime(FILES, { settings: DENY_ENV });
    expect((await rt.runTool('search_files', { regex: 'TOKEN', path: '.env' })).text).toMatch(
      /^Not run: .*denied by rule read_file\(\*\*\/\.env\)/,
    );
  });
  it('glob does not list denied files', async () => {
    const { rt } = runtime(FILES, { settings: DENY_ENV });
    expect((await rt.runTool('glob', { pattern: '**/*' })).text.split('\n').sort()).toEqual(['a.txt']);
  });
  it('list_files leaves them out, at the top level and recursively', async () => {
    const { rt } = runtime(FILES, { settings: DENY_ENV });
    expect((await rt.runTool('list_files', {})).text).toBe('a.txt\nconfig/');
    expect((await rt.runTool('list_files', { recursive: true })).text).toBe('a.txt');
  });
  it('a folder rule hides the folder from the listing', async () => {
    const { rt } = runtime(
      { 'secrets/key': 'k', 'b.txt': '' },
      { settings: { permissions: { deny: ['read_file(secrets/**)'] } } },
    );
    expect((await rt.runTool('list_files', {})).text).toBe('b.txt');
  });
  it('monitor on a denied file is refused', async () => {
    const { rt } = runtime(FILES, { settings: DENY_ENV, features: ['monitor'] });
    expect((await rt.runTool('monitor', { path: '.env', timeout: 1 })).text).toMatch(
      /^Not run: .*denied by rule/,
    );
  });
});

describe('deny rules hold for the edit tools and commands', () => {
  it('edit tools cannot change a read-denied file, even under --yolo', async () => {
    const { rt } = runtime(FILES, { settings: DENY_ENV, yolo: true });
    const r = await rt.runTool('write_to_file', { path: '.env', content: 'TOKEN=x\n' });
    expect(r.text).toMatch(/^Not run: .*denied by rule read_file/);
  });
  it('apply_patch cannot add a file under a write-denied folder', async () => {
    const { dir, rt } = runtime(
      {},
      { settings: { permissions: { deny: ['write_to_file(secrets/**)'] } }, yolo: true },
    );
    const patch = '*** Begin Patch\n*** Add File: secrets/key\n+k\n*** End Patch\n';
    expect((await rt.runTool('apply_patch', { input: patch })).text).toMatch(/^Not run: .*write_to_file/);
    expect(existsSync(join(dir, 'secrets', 'key'))).toBe(false);
  });
  testNeeds('bwrap')('cat .env is refused; cat a.txt runs', async () => {
    const { rt } = runtime(FILES, { settings: DENY_ENV, yolo: true });
    expect((await rt.runTool('execute_command', { command: 'cat .env' })).text).toMatch(/^Not run: .*\.env/);
    expect((await rt.runTool('execute_command', { command: 'cat a.txt' })).text).toMatch(/TOKEN=public/);
  });
});

describe('outside the workspace, nothing is told before approval', () => {
  it('a missing and an existing file get the same refusal', async () => {
    const { rt } = runtime({});
    const missing = await rt.runTool('read_file', { path: '/etc/lathe-no-such-file' });
    const present = await rt.runTool('read_file', { path: '/etc/hostname' });
    expect(missing.text).toMatch(/^Not run: read_file needs approval \(category readOutside\)/);
    expect(missing.text).toBe(present.text);
  });
  it('the same holds for folders and searches', async () => {
    const { rt } = runtime({});
    for (const [tool, input] of [
      ['list_files', { path: '/etc/lathe-no-such-folder' }],
      ['glob', { pattern: '*', path: '/etc/lathe-no-such-folder' }],
      ['search_files', { regex: 'x', path: '/etc/lathe-no-such-folder' }],
    ] as const) {
      expect((await rt.runTool(tool, input)).text, tool).toMatch(/^Not run: .*readOutside/);
    }
  });
  it('once approved, the missing file is reported', async () => {
    const { rt } = runtime({}, { approve: ['readOutside'] });
    expect((await rt.runTool('read_file', { path: '/etc/lathe-no-such-file' })).text).toMatch(
      /does not exist/,
    );
  });
  it('inside the workspace a missing file is reported at once', async () => {
    const { rt } = runtime({});
    expect((await rt.runTool('read_file', { path: 'nope.txt' })).text).toMatch(/does not exist/);
  });
});

describe('refusals give the actual reason', () => {
  testNeeds('bwrap')('under --yolo in Plan mode they do not say "rerun with --yolo"', async () => {
    const { rt } = runtime({}, { yolo: true, mode: 'plan' });
    const r = await rt.runTool('execute_command', { command: 'touch x' });
    expect(r.text).toMatch(/Plan mode/);
    expect(r.text).not.toMatch(/--yolo, or add/);
  });
  it('under --yolo a protected path says a person must approve it', async () => {
    const { rt } = runtime({}, { yolo: true });
    const r = await rt.runTool('write_to_file', { path: '.agents/settings.json', content: '{}' });
    expect(r.text).toMatch(/protected paths ask even under --yolo/);
    expect(r.text).not.toMatch(/rerun with/);
  });
  it('without --yolo the usual advice stays', async () => {
    const { rt } = runtime({});
    expect((await rt.runTool('write_to_file', { path: 'a.txt', content: 'x' })).text).toMatch(
      /rerun with --approve edit or --yolo/,
    );
  });
});

describe('headless runs without --approve schedule nothing', () => {
  testNeeds('bwrap')('cron_create asks, so it is refused', async () => {
    const { rt } = runtime({}, { features: ['triggers'] });
    const r = await rt.runTool('cron_create', { schedule: '0 9 * * *', prompt: 'x' });
    expect(r.text).toMatch(/^Not run: cron_create needs approval \(category executeAll\)/);
    expect((await rt.runTool('cron_list', {})).text).not.toMatch(/0 9 \* \* \*/);
  });
  testNeeds('bwrap')('remote_trigger create is refused; list is not', async () => {
    const { rt } = runtime({}, { features: ['remote_triggers'], env: { LATHE_TRIGGER_PORT: '0' } });
    expect((await rt.runTool('remote_trigger', { action: 'create' })).text).toMatch(/^Not run: .*executeAll/);
    expect((await rt.runTool('remote_trigger', { action: 'list' })).text).toMatch(/No remote triggers/);
  });
});
