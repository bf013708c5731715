import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkpointsFolder } from '../../src/checkpoints/index.js';
import type { SettingsLayer } from '../../src/config/types.js';
import { validateSettings } from '../../src/config/validate.js';
import { createRuntime, type Runtime } from '../../src/runtime/create_runtime.js';
import { testNeeds } from '../support/required_programs.js';
import { tempDir } from '../support/runtime_fixtures.js';

let runtime: Runtime | undefined;
afterEach(async () => {
  await runtime?.dispose();
  runtime = undefined;
});

function start(options: { settings?: SettingsLayer; env?: NodeJS.ProcessEnv; dir?: string } = {}) {
  const dir = options.dir ?? tempDir('lathe-ws-');
  const home = tempDir('lathe-home-');
  runtime = createRuntime({
    cwd: dir,
    documentsRoot: home,
    yolo: true,
    settings: { lsp: { diagnosticsAfterEdit: false }, ...options.settings },
    env: options.env ?? { ...process.env, NODE_ENV: 'test', LATHE_FEATURES: '' },
  });
  return { dir, home, runtime };
}

const labels = async (runtime: Runtime) =>
  (await runtime.checkpoints.store(runtime.workspace)?.list())?.map((c) => `${c.kind}: ${c.label}`);

describe('the checkpoint step of the call pipeline', () => {
  testNeeds('bwrap')(
    'takes one before an edit and before a command that writes, none before a read-only command',
    async () => {
      const { dir, runtime } = start();
      writeFileSync(join(dir, 'a.txt'), 'a\n');
      expect((await runtime.runTool('execute_command', { command: 'ls -la && cat a.txt' })).isError).toBe(
        false,
      );
      expect(await labels(runtime)).toEqual([]);

      await runtime.runTool('execute_command', { command: 'echo b > b.txt' });
      await runtime.runTool('write_to_file', { path: 'c.txt', content: 'c\n' });
      expect(await labels(runtime)).toEqual(['call: Run echo b > b.txt', 'call: Write c.txt']);
    },
  );

  it('takes none before a call the user declined (headless: refused)', async () => {
    const dir = tempDir('lathe-ws-');
    runtime = createRuntime({ cwd: dir, documentsRoot: tempDir('lathe-home-'), env: process.env });
    const result = await runtime.runTool('execute_command', { command: 'touch x' });
    expect(result.permissionDenial).toBeDefined();
    expect(await labels(runtime)).toEqual([]);
  });

  it("a turn's checkpoint holds where the conversation stood", async () => {
    const { runtime } = start();
    await runtime.checkpointTurn('fix the bug\nplease', [
      { role: 'user', content: [{ type: 'text', text: 'earlier' }] },
    ]);
    const [turn] = (await runtime.checkpoints.store(runtime.workspace)?.list()) ?? [];
    expect(turn).toMatchObject({
      kind: 'turn',
      label: 'fix the bug',
      conversation: { session: runtime.sessionId, messages: 1 },
    });
  });
});

describe('without git on PATH', () => {
  it('checkpoints are off with one warning, and the tools work as before', async () => {
    const empty = tempDir('lathe-path-');
    const { dir, home, runtime } = start({ env: { ...process.env, PATH: empty, NODE_ENV: 'test' } });
    const said = runtime.warnings.filter((w) => w.includes('checkpoints'));
    expect(said).toEqual([
      'checkpoints are off: git is not on PATH (install git for /undo, /rewind and lathe checkpoints)',
    ]);
    const result = await runtime.runTool('write_to_file', { path: 'a.txt', content: 'a\n' });
    expect(result.isError).toBe(false);
    expect(result.text).not.toContain('checkpoint');
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('a\n');
    expect(await runtime.checkpointTurn('hello', [])).toBeUndefined();
    expect(existsSync(checkpointsFolder(home))).toBe(false);
  });
});

describe('settings checkpoints', () => {
  it('are checked key by key', () => {
    expect(() =>
      validateSettings(
        { checkpoints: { keep: 0, maxAgeDays: 'x', exclude: 'a', color: 1 } },
        'settings.json',
      ),
    ).toThrow(
      'settings.json: "checkpoints.keep" must be a positive whole number; "checkpoints.maxAgeDays" must be a positive whole number; "checkpoints.exclude" must be a list of patterns; "checkpoints.color" is not known (use enabled, keep, maxAgeDays, exclude)',
    );
  });

  it('from an untrusted folder cannot turn checkpoints off, leave files out or keep fewer', () => {
    const dir = tempDir('lathe-ws-');
    mkdirSync(join(dir, '.agents'));
    writeFileSync(
      join(dir, '.agents', 'settings.json'),
      JSON.stringify({ checkpoints: { enabled: false, exclude: ['src/'], keep: 5 } }),
    );
    runtime = createRuntime({ cwd: dir, documentsRoot: tempDir('lathe-home-'), env: process.env });
    expect(runtime.settings.checkpoints).toEqual({ enabled: true, keep: 100, maxAgeDays: 30, exclude: [] });
    expect(runtime.trust.settings).toEqual(
      expect.arrayContaining(['checkpoints.enabled=false', 'checkpoints.exclude', 'checkpoints.keep=5']),
    );
    expect(runtime.checkpoints.off).toBeUndefined();
  });
});
