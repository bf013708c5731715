import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { latheAsync } from '../support/cli.js';
import { FakeModelServer } from '../support/fake_model_server.js';
import { testNeeds } from '../support/required_programs.js';
import { tempDir } from '../support/runtime_fixtures.js';

const NO_KEYS = {
  ANTHROPIC_API_KEY: '',
  OPENAI_API_KEY: '',
  GEMINI_API_KEY: '',
  GOOGLE_API_KEY: '',
  GOOGLE_GENERATIVE_AI_API_KEY: '',
  OPENAI_COMPATIBLE_API_KEY: '',
  ANTHROPIC_BASE_URL: '',
  OPENAI_BASE_URL: '',
  GOOGLE_GEMINI_BASE_URL: '',
  OPENAI_COMPATIBLE_BASE_URL: '',
  HTTPS_PROXY: '',
  https_proxy: '',
  HTTP_PROXY: '',
  http_proxy: '',
  LATHE_MODEL: '',
};

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function doctor(
  options: {
    env?: Record<string, string>;
    cwd?: string;
    home?: string;
    json?: boolean;
    args?: string[];
  } = {},
) {
  const flags = [...(options.json ? ['--json'] : []), ...(options.args ?? [])];
  return latheAsync(['doctor', '--cwd', options.cwd ?? tempDir(), ...flags], {
    env: { ...NO_KEYS, LATHE_HOME: options.home ?? tempDir('lathe-home-'), ...options.env },
  });
}

/** A PATH holding only these programs (linked from the machine's PATH). */
function pathWith(...programs: string[]): string {
  const bin = tempDir('lathe-bin-');
  for (const program of programs)
    symlinkSync(execFileSync('which', [program], { encoding: 'utf8' }).trim(), join(bin, program));
  return bin;
}

/** The line of one check. */
const line = (stdout: string, name: string) =>
  stdout.split('\n').find((l) => new RegExp(`^[✓✗] ${name.replace(/[.*+?()[\]]/g, '\\$&')}\\s`).test(l));

describe('lathe doctor', () => {
  testNeeds('bwrap')(
    'prints one ✓/✗ line per check, then a summary, and exits 0 when everything essential works',
    async () => {
      const r = await doctor();
      expect(r.code).toBe(0);
      const [checks, summary] = r.stdout.split('\n\n');
      const lines = checks.split('\n');
      for (const l of lines) expect(l).toMatch(/^[✓✗] [a-z][\w -]*\S\s{2,}\S/);
      const names = lines.map((l) =>
        l
          .slice(2)
          .split(/\s{2,}/)[0]
          .trim(),
      );
      expect(names).toEqual(
        expect.arrayContaining([
          'node',
          'ripgrep',
          'git',
          'bubblewrap',
          'sandbox',
          'tmux',
          'chromium',
          'language server typescript',
          'language server pyright',
          'settings',
          'model',
          'api keys',
        ]),
      );
      expect(line(r.stdout, 'node')).toContain(`Node ${process.versions.node}`);
      expect(line(r.stdout, 'sandbox')).toMatch(/^✓ sandbox\s+workspace-write: commands run in bubblewrap/);
      expect(summary).toMatch(/^Everything essential works/);
    },
  );

  it('says what is missing and how to fix it: a PATH without tmux', async () => {
    // The sandbox probe cannot see a PATH under /tmp (its /tmp is private): the user turned it off.
    const home = tempDir('lathe-home-');
    mkdirSync(join(home, 'settings'));
    writeFileSync(join(home, 'settings', 'settings.json'), JSON.stringify({ sandbox: { mode: 'off' } }));
    const r = await doctor({ home, env: { PATH: pathWith('git') } });
    expect(line(r.stdout, 'sandbox')).toMatch(/^✓ sandbox\s+off/);
    expect(line(r.stdout, 'tmux')).toMatch(
      /^✗ tmux\s+not found on PATH .* — install tmux \(apt install tmux\)$/,
    );
    expect(line(r.stdout, 'chromium')).toMatch(/^✗ chromium/);
    expect(line(r.stdout, 'git')).toMatch(/^✓ git\s+git version/);
    // tmux is optional: the exit code stays 0.
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Everything essential works \(\d+ optional checks failed\)\.\n$/);
  });

  it('exits 1 when the sandbox does not work (no bubblewrap on PATH)', async () => {
    const r = await doctor({ env: { PATH: pathWith('git', 'true') } });
    expect(line(r.stdout, 'bubblewrap')).toMatch(/^✗ bubblewrap\s+bwrap not found on PATH/);
    expect(line(r.stdout, 'sandbox')).toMatch(/^✗ sandbox\s+.* — install bubblewrap/);
    expect(r.stdout).toMatch(/1 essential check failed\.\n$/);
    expect(r.code).toBe(1);
  });

  it('names the providers that have keys, GOOGLE_API_KEY included', async () => {
    const r = await doctor({ env: { ANTHROPIC_API_KEY: 'k', GOOGLE_API_KEY: 'k' } });
    expect(line(r.stdout, 'api keys')).toMatch(
      /^✓ api keys\s+anthropic \(ANTHROPIC_API_KEY\), google \(GOOGLE_API_KEY\)$/,
    );
    const none = await doctor();
    expect(line(none.stdout, 'api keys')).toMatch(
      /^✗ api keys\s+no provider key is set — export ANTHROPIC_API_KEY/,
    );
  });

  it('fails (exit 1) when the configured model has no key', async () => {
    const r = await doctor({ env: { LATHE_MODEL: 'openai/gpt-5' } });
    expect(line(r.stdout, 'model')).toMatch(
      /^✗ model\s+openai\/gpt-5: OPENAI_API_KEY is not set — export OPENAI_API_KEY$/,
    );
    expect(r.code).toBe(1);
  });

  it('checks the model --model names instead of the configured one', async () => {
    const r = await doctor({
      env: { LATHE_MODEL: 'anthropic/claude-sonnet-4-5', ANTHROPIC_API_KEY: 'k' },
      args: ['--model', 'openai/gpt-5'],
    });
    expect(line(r.stdout, 'model')).toMatch(/^✗ model\s+openai\/gpt-5: OPENAI_API_KEY is not set/);
    expect(r.code).toBe(1);
    const typo = await doctor({ args: ['--model', 'antrhopic/claude-sonnet-4-5'] });
    expect(line(typo.stdout, 'model')).toContain('did you mean anthropic/claude-sonnet-4-5?');
  });

  it('marks the model row ✗ when no model is set, with how to set one', async () => {
    const r = await doctor();
    expect(line(r.stdout, 'model')).toMatch(/^✗ model\s+none set — pass --model provider\/model/);
  });

  it('asks each configured endpoint, and says which do not answer', async () => {
    server = await FakeModelServer.start();
    const r = await doctor({
      env: { ANTHROPIC_BASE_URL: server.url, OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' },
    });
    expect(line(r.stdout, 'endpoint ANTHROPIC_BASE_URL')).toMatch(/^✓ .* answers \(HTTP 404\)$/);
    expect(line(r.stdout, 'endpoint OPENAI_BASE_URL')).toMatch(/^✗ .*127\.0\.0\.1:9\/v1: .* — check the URL/);
    expect(server.requests.some((q) => q.method === 'GET' && q.path === '/')).toBe(true);
  });

  it('connects the user’s MCP servers, but starts none a workspace brings', async () => {
    const everything = createRequire(import.meta.url).resolve(
      '@modelcontextprotocol/server-everything/dist/index.js',
    );
    const home = tempDir('lathe-home-');
    mkdirSync(join(home, 'settings'));
    writeFileSync(
      join(home, 'settings', 'mcp_settings.json'),
      JSON.stringify({
        mcpServers: {
          everything: { command: process.execPath, args: [everything, 'stdio'] },
          broken: { command: process.execPath, args: ['-e', 'process.exit(3)'] },
        },
      }),
    );
    const workspace = tempDir();
    mkdirSync(join(workspace, '.agents', 'mcp'), { recursive: true });
    const marker = join(workspace, 'started');
    writeFileSync(
      join(workspace, '.agents', 'mcp', 'local.json'),
      JSON.stringify({
        mcpServers: { local: { command: 'sh', args: ['-c', `touch ${marker}`] } },
      }),
    );
    const r = await doctor({ home, cwd: workspace });
    expect(line(r.stdout, 'mcp everything')).toMatch(/^✓ mcp everything\s+stdio, \d+ tools$/);
    expect(line(r.stdout, 'mcp broken')).toMatch(/^✗ mcp broken\s+/);
    expect(line(r.stdout, 'mcp local')).toMatch(/^✓ mcp local\s+from .*local\.json: not started by doctor/);
    expect(() => execFileSync('test', ['-e', marker])).toThrow();
  });

  it('fails (exit 1) on a settings file that is not valid', async () => {
    const workspace = tempDir();
    mkdirSync(join(workspace, '.agents'));
    writeFileSync(join(workspace, '.agents', 'settings.json'), '{ "model": ');
    const r = await doctor({ cwd: workspace });
    expect(line(r.stdout, 'settings')).toMatch(
      /^✗ settings\s+.*settings\.json.* — correct it in the settings file$/,
    );
    expect(r.code).toBe(1);
  });

  it('prints the checks as JSON with --json', async () => {
    const r = await doctor({ json: true });
    const results = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    expect(results.find((c) => c.name === 'node')).toEqual({
      name: 'node',
      ok: true,
      detail: `Node ${process.versions.node}`,
      essential: true,
    });
    expect(results.every((c) => typeof c.ok === 'boolean' && typeof c.detail === 'string')).toBe(true);
  });
});
