import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SettingsLayer } from '../../src/config/types.js';
import { probeSandbox } from '../../src/permission/sandbox/bubblewrap.js';
import { createRuntime } from '../../src/runtime/create_runtime.js';
import { needs } from '../support/required_programs.js';
import { tempDir } from '../support/runtime_fixtures.js';

/** A folder outside the workspace and outside the temp folders the sandbox leaves writable. */
let outside: string;
let server: Server;
let port: number;

beforeAll(async () => {
  outside = realpathSync(mkdtempSync(join(homedir(), '.lathe-sandbox-test-')));
  server = createServer((socket) => socket.end('hello\n'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});

afterAll(() => {
  rmSync(outside, { recursive: true, force: true });
  server.close();
});

function runtime(sandbox: SettingsLayer['sandbox'] = {}, home = tempDir('lathe-home-')) {
  const dir = tempDir('lathe-sbx-ws-');
  const rt = createRuntime({ cwd: dir, documentsRoot: home, env: {}, yolo: true, settings: { sandbox } });
  const run = (command: string) => rt.runTool('execute_command', { command });
  return { dir, rt, run, home };
}

needs('bwrap')('the bubblewrap sandbox (workspace-write)', () => {
  it('is active here', async () => {
    expect(await runtime().rt.checkSandbox()).toEqual({ active: true });
  });

  it('lets a command write inside the workspace', async () => {
    const { dir, run } = runtime();
    expect((await run('echo inside > made.txt')).isError).toBe(false);
    expect(readFileSync(join(dir, 'made.txt'), 'utf8')).toBe('inside\n');
  });

  it('lets a command write in the temp folder', async () => {
    const { run } = runtime();
    expect((await run('t=$(mktemp) && echo ok > "$t" && cat "$t" && rm "$t"')).text).toMatch(/^ok/);
  });

  it('stops a write outside the workspace', async () => {
    const { run } = runtime();
    const r = await run(`echo escape > ${outside}/x.txt`);
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/Read-only file system/);
    expect(existsSync(join(outside, 'x.txt'))).toBe(false);
  });

  it('stops a write through a symlink made inside that leads outside', async () => {
    const { run } = runtime();
    const r = await run(`ln -s ${outside} out && echo escape > out/y.txt`);
    expect(r.isError).toBe(true);
    expect(existsSync(join(outside, 'y.txt'))).toBe(false);
  });

  it('takes away a .agents/ a command creates, and makes none itself', async () => {
    const { dir, run } = runtime();
    await run('mkdir -p .agents && echo "{}" > .agents/settings.json');
    expect(existsSync(join(dir, '.agents'))).toBe(false);
  });

  it('keeps an existing .agents/ read-only', async () => {
    const { dir, run } = runtime();
    mkdirSync(join(dir, '.agents'));
    writeFileSync(join(dir, '.agents', 'settings.json'), '{}');
    expect((await run('echo hacked > .agents/settings.json')).isError).toBe(true);
    expect(readFileSync(join(dir, '.agents', 'settings.json'), 'utf8')).toBe('{}');
  });

  it('keeps .git/hooks read-only, also for hooks that do not exist yet', async () => {
    const { dir, run } = runtime();
    mkdirSync(join(dir, '.git', 'hooks'), { recursive: true });
    expect((await run('echo "rm -rf ~" > .git/hooks/pre-commit')).isError).toBe(true);
    expect(existsSync(join(dir, '.git', 'hooks', 'pre-commit'))).toBe(false);
  });

  it("keeps lathe's settings out of reach, even inside a temp folder", async () => {
    const home = tempDir('lathe-home-');
    const { run } = runtime({}, home);
    // Inside, the temp folder is a private one: the write lands there and vanishes.
    await run(`mkdir -p ${home}/settings && echo "{}" > ${home}/settings/settings.json`);
    expect(existsSync(join(home, 'settings', 'settings.json'))).toBe(false);
  });

  it('keeps existing lathe settings read-only', async () => {
    const home = tempDir('lathe-home-');
    mkdirSync(join(home, 'settings'));
    writeFileSync(join(home, 'settings', 'settings.json'), '{}');
    const { run } = runtime({}, home);
    expect((await run(`echo '{"x":1}' > ${home}/settings/settings.json`)).isError).toBe(true);
    expect(readFileSync(join(home, 'settings', 'settings.json'), 'utf8')).toBe('{}');
  });

  it('has no network', async () => {
    const { run } = runtime();
    const r = await run(`exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3`);
    expect(r.isError).toBe(true);
    expect(r.text).not.toMatch(/hello/);
  });

  it('has the network when settings allow it', async () => {
    const { run } = runtime({ network: true });
    expect((await run(`exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3`)).text).toMatch(/^hello/);
  });
});

describe('other sandbox modes', () => {
  it('read-only: even the workspace cannot be written', async () => {
    const { dir, run } = runtime({ mode: 'read-only' });
    expect((await run('echo x > made.txt')).isError).toBe(true);
    expect(existsSync(join(dir, 'made.txt'))).toBe(false);
  });

  it('off: commands run bare and can write outside', async () => {
    const { run } = runtime({ mode: 'off' });
    expect((await run(`echo bare > ${outside}/bare.txt`)).isError).toBe(false);
    expect(readFileSync(join(outside, 'bare.txt'), 'utf8')).toBe('bare\n');
  });

  it('says why it falls back when bubblewrap is missing', async () => {
    const status = await probeSandbox({
      mode: 'workspace-write',
      network: false,
      workspace: tempDir(),
      documentsRoot: tempDir(),
      bwrapPath: '/nonexistent/bwrap',
    });
    expect(status).toEqual({ active: false, reason: 'bubblewrap (bwrap) is not installed' });
  });
});
