import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { LATHE_BIN, lathe } from '../support/cli.js';
import { freePort } from '../support/ports.js';
import { testNeeds } from '../support/required_programs.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { treeState } from './fixture.js';

const envFor = (home: string, extra: NodeJS.ProcessEnv = {}) => ({
  LATHE_HOME: home,
  NODE_ENV: 'test',
  LATHE_FEATURES: '',
  ...extra,
});

const tool = (dir: string, home: string, name: string, input: unknown, extra: NodeJS.ProcessEnv = {}) =>
  lathe(['tool', name, '--yolo', '--cwd', dir, '--input', JSON.stringify(input)], {
    env: envFor(home, extra),
  });

// Each test runs the built command several times, one after another.
vi.setConfig({ testTimeout: 120_000 });

describe('lathe checkpoints', () => {
  testNeeds('bwrap')(
    'lists the checkpoints taken before changes, restores one, and tells the disk used',
    () => {
      const dir = tempDir('lathe-ws-');
      const home = tempDir('lathe-home-');
      writeFileSync(join(dir, 'a.txt'), 'original\n');
      const original = treeState(dir);
      expect(tool(dir, home, 'write_to_file', { path: 'a.txt', content: 'rewritten\n' }).code).toBe(0);
      expect(tool(dir, home, 'execute_command', { command: 'touch b.txt && rm a.txt' }).code).toBe(0);

      const listed = lathe(['checkpoints', 'list', '--cwd', dir], { env: envFor(home) });
      expect(listed.code).toBe(0);
      const lines = listed.stdout.trim().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(
        /^[0-9a-f]{8} {2}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}call {5}Run touch b.txt && rm a.txt$/,
      );
      expect(lines[1]).toMatch(/call {5}Write a.txt$/);
      const firstId = lines[1].slice(0, 8);

      const restored = lathe(['checkpoints', 'restore', firstId, '--cwd', dir], { env: envFor(home) });
      expect(restored.code).toBe(0);
      expect(restored.stdout).toMatch(
        new RegExp(`^Restored ${firstId} \\(Write a.txt\\): 1 file\\(s\\) written back, 1 removed\\.\\n`),
      );
      expect(treeState(dir)).toEqual(original);
      const back = /lathe checkpoints restore ([0-9a-f]{8})/.exec(restored.stdout)?.[1] ?? '';
      expect(lathe(['checkpoints', 'restore', back, '--cwd', dir], { env: envFor(home) }).code).toBe(0);
      expect([existsSync(join(dir, 'a.txt')), existsSync(join(dir, 'b.txt'))]).toEqual([false, true]);

      const du = lathe(['checkpoints', 'du', '--json', '--cwd', dir], { env: envFor(home) });
      const usage = JSON.parse(du.stdout);
      expect(usage).toMatchObject({ workspace: dir, checkpoints: 4 });
      expect(usage.bytes).toBeGreaterThan(0);
      expect(usage.allWorkspacesBytes).toBeGreaterThanOrEqual(usage.bytes);

      const pruned = lathe(['checkpoints', 'prune', '--all', '--cwd', dir], { env: envFor(home) });
      expect(pruned.stdout).toMatch(/^Removed 4 checkpoint\(s\)/);
      expect(lathe(['checkpoints', '--cwd', dir], { env: envFor(home) }).stdout).toBe(
        `No checkpoints of ${dir} yet.\n`,
      );
    },
  );

  it('take the prompt of a run whose model never answered, and the run still ends', async () => {
    const dir = tempDir('lathe-ws-');
    const home = tempDir('lathe-home-');
    writeFileSync(join(dir, 'a.txt'), 'kept\n');
    const r = lathe(
      [
        '-p',
        'fix it',
        '--model',
        'openai-compatible/m',
        '--base-url',
        `http://127.0.0.1:${await freePort()}/v1`,
      ],
      { cwd: dir, env: envFor(home) },
    );
    expect(r.code).toBe(1);
    const listed = lathe(['checkpoints', 'list', '--json', '--cwd', dir], { env: envFor(home) });
    expect(JSON.parse(listed.stdout).map((c: { kind: string; label: string }) => [c.kind, c.label])).toEqual([
      ['turn', 'fix it'],
    ]);
  });

  it('answers an id that names no checkpoint in one line', () => {
    const r = lathe(['checkpoints', 'restore', 'abcdef12', '--cwd', tempDir('lathe-ws-')], {
      env: envFor(tempDir('lathe-home-')),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'lathe: no checkpoint abcdef12 in this workspace (lathe checkpoints list shows them)\n',
    );
  });

  it('prunes to checkpoints.keep of the settings', () => {
    const dir = tempDir('lathe-ws-');
    const home = tempDir('lathe-home-');
    for (let i = 0; i < 3; i++) tool(dir, home, 'write_to_file', { path: 'a.txt', content: `${i}\n` });
    mkdirSync(join(home, 'settings'));
    writeFileSync(join(home, 'settings', 'settings.json'), JSON.stringify({ checkpoints: { keep: 2 } }));
    const r = lathe(['checkpoints', 'prune', '--cwd', dir], { env: envFor(home) });
    expect(r.stdout).toMatch(/^Removed 1 checkpoint\(s\); /);
    const listed = lathe(['checkpoints', 'list', '--json', '--cwd', dir], { env: envFor(home) });
    expect(JSON.parse(listed.stdout).map((c: { label: string }) => c.label)).toEqual([
      'Write a.txt',
      'Write a.txt',
    ]);
  });
});

describe('checkpoints through the command line', () => {
  it('are off with one warning when git is not on PATH; the call runs', () => {
    const dir = tempDir('lathe-ws-');
    const home = tempDir('lathe-home-');
    const r = tool(
      dir,
      home,
      'write_to_file',
      { path: 'a.txt', content: 'a\n' },
      { PATH: tempDir('lathe-path-') },
    );
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n').filter((l) => l.includes('checkpoints'))).toEqual([
      'lathe: warning: checkpoints are off: git is not on PATH (install git for /undo, /rewind and lathe checkpoints)',
    ]);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('a\n');
    expect(existsSync(join(home, 'checkpoints'))).toBe(false);
  });

  it('leave out a file the user cannot read, name it, and still take the checkpoint', () => {
    const dir = tempDir('lathe-ws-');
    const home = tempDir('lathe-home-');
    for (const folder of [dir, home]) chmodSync(folder, 0o777);
    writeFileSync(join(dir, 'secret.txt'), 'root only\n');
    chmodSync(join(dir, 'secret.txt'), 0o600);
    writeFileSync(join(dir, 'open.txt'), 'anyone\n');
    chmodSync(join(dir, 'open.txt'), 0o666);
    const asNobody = (args: string[]) =>
      spawnSync(
        'setpriv',
        ['--reuid=nobody', '--regid=nogroup', '--clear-groups', '--', process.execPath, LATHE_BIN, ...args],
        { env: { ...process.env, ...envFor(home), HOME: home }, encoding: 'utf8' },
      );
    const wrote = asNobody([
      'tool',
      'execute_command',
      '--yolo',
      '--sandbox',
      'off',
      '--cwd',
      dir,
      '--input',
      JSON.stringify({ command: 'echo changed > open.txt' }),
    ]);
    expect(wrote.status).toBe(0);
    expect(wrote.stdout).not.toContain('No checkpoint');
    const listed = JSON.parse(asNobody(['checkpoints', 'list', '--json', '--cwd', dir]).stdout);
    expect(listed).toHaveLength(1);
    expect(listed[0].skipped).toEqual([{ path: 'secret.txt', reason: 'not readable' }]);
    const restored = asNobody(['checkpoints', 'restore', listed[0].id, '--cwd', dir]);
    expect(restored.status).toBe(0);
    expect(readFileSync(join(dir, 'open.txt'), 'utf8')).toBe('anyone\n');
    expect(readFileSync(join(dir, 'secret.txt'), 'utf8')).toBe('root only\n');
  });
});
