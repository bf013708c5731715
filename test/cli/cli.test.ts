import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lathe, latheAsync } from '../support/cli.js';
import { tempDir } from '../support/runtime_fixtures.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
const env = () => ({ LATHE_HOME: tempDir('lathe-home-'), LATHE_FEATURES: '', NODE_ENV: 'production' });

describe('lathe --version', () => {
  it('prints the package version', () => {
    const r = lathe(['--version']);
    expect(r).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
  });
});

describe('lathe help', () => {
  it('prints the same help as --help, naming the commands, the prompt and -m', () => {
    const help = lathe(['help'], { env: env() });
    expect(help.code).toBe(0);
    expect(help.stdout).toBe(lathe(['--help'], { env: env() }).stdout);
    expect(help.stdout).toMatch(/^Usage: lathe \[options\] \[command\] \[prompt\]/);
    expect(help.stdout).toMatch(/-m, --model <provider\/model>/);
    expect(help.stdout).toMatch(/^\s+doctor\b/m);
  });

  it('prints a command’s help with lathe help COMMAND', () => {
    const r = lathe(['help', 'doctor'], { env: env() });
    expect(r).toMatchObject({ code: 0 });
    expect(r.stdout).toMatch(/^Usage: lathe doctor \[options\]/);
  });
});

describe('lathe tools', () => {
  it('lists the pool with RO/D/CS and token costs', () => {
    const r = lathe(['tools', '--cwd', tempDir()], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^read_file\s+✓\s+·\s+✓\s+\|\s+✓\s+✓\s+·\s+·\s+\d+\s+standard,lite,simple/m);
    expect(r.stdout).toMatch(/^write_to_file\s+·\s+·\s+·\s+\|\s+·\s+·\s+✓\s+✓\s+\d+/m);
    expect(r.stdout).toMatch(/tools, \d+ tokens of definitions \(profile standard, mode act\)/);
  });

  it('prints JSON rows with the documented fields', () => {
    const r = lathe(['tools', '--json', '--cwd', tempDir()], { env: env() });
    const rows = JSON.parse(r.stdout);
    const read = rows.find((row: { name: string }) => row.name === 'read_file');
    expect(read).toEqual({
      name: 'read_file',
      aliases: [],
      readOnly: true,
      destructive: false,
      concurrencySafe: true,
      latheFacts: {
        planModeAllowed: true,
        runsInParallel: true,
        destroysExisting: false,
        refusedInStrictPlan: false,
      },
      profiles: ['standard', 'lite', 'simple'],
      tokens: expect.any(Number),
    });
    expect(read.tokens).toBeGreaterThan(50);
  });

  it('follows --profile', () => {
    const rows = JSON.parse(
      lathe(['tools', '--json', '--profile', 'simple', '--cwd', tempDir()], { env: env() }).stdout,
    );
    expect(rows.map((r: { name: string }) => r.name)).toEqual(['edit_file', 'execute_command', 'read_file']);
  });

  it('refuses an unknown profile', () => {
    const r = lathe(['tools', '--profile', 'huge'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/huge/);
  });
});

describe('lathe tool', () => {
  it('runs one tool and prints what the model would see', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'hello.txt'), 'hello\nworld\n');
    const r = lathe(['tool', 'read_file', '--input', '{"path":"hello.txt"}', '--cwd', dir], { env: env() });
    expect(r).toMatchObject({ code: 0, stdout: '1\thello\n2\tworld\n' });
  });

  it('exits 1 when the result is an error', () => {
    const r = lathe(['tool', 'read_file', '--input', '{"path":"missing.txt"}', '--cwd', tempDir()], {
      env: env(),
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/does not exist/);
  });

  it('answers bad JSON input with a clear error', () => {
    const r = lathe(['tool', 'read_file', '--input', '{path:', '--cwd', tempDir()], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/not valid JSON/);
  });

  it('answers an unknown tool with the list of tools', () => {
    const r = lathe(['tool', 'frobnicate', '--cwd', tempDir()], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/Unknown tool "frobnicate". Available tools: .*read_file/);
  });

  it('reads the input from standard input with --input -', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.txt'), 'A');
    const r = lathe(['tool', 'read_file', '--input', '-', '--cwd', dir], {
      env: env(),
      input: '{"path":"a.txt"}',
    });
    expect(r.stdout).toBe('1\tA\n');
  });

  it('prints JSON with --json', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.txt'), 'A');
    const r = lathe(['tool', 'read_file', '--input', '{"path":"a.txt"}', '--json', '--cwd', dir], {
      env: env(),
    });
    expect(JSON.parse(r.stdout)).toMatchObject({ isError: false, text: '1\tA' });
  });

  it('denies a read outside the workspace headless, and --approve readOutside allows it', () => {
    const dir = tempDir();
    const outside = tempDir();
    writeFileSync(join(outside, 'o.txt'), 'O');
    const input = JSON.stringify({ path: join(outside, 'o.txt') });
    expect(lathe(['tool', 'read_file', '--input', input, '--cwd', dir], { env: env() }).code).toBe(1);
    const approved = lathe(
      ['tool', 'read_file', '--input', input, '--cwd', dir, '--approve', 'readOutside'],
      { env: env() },
    );
    expect(approved).toMatchObject({ code: 0, stdout: '1\tO\n' });
  });

  it('says a folder given as --cwd does not exist', () => {
    const r = lathe(['tool', 'read_file', '--cwd', '/no/such/place'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('lathe: --cwd /no/such/place: no such folder\n');
  });
});

describe('lathe tools and lathe tool with MCP servers configured', () => {
  const everything = createRequire(import.meta.url).resolve(
    '@modelcontextprotocol/server-everything/dist/index.js',
  );
  function workspaceWithServer(): string {
    const dir = tempDir();
    mkdirSync(join(dir, '.agents', 'mcp'), { recursive: true });
    writeFileSync(
      join(dir, '.agents', 'mcp', 'everything.json'),
      JSON.stringify({
        mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'] } },
      }),
    );
    return dir;
  }

  it('lists the servers’ tools after the built-ins', async () => {
    const r = await latheAsync(['tools', '--json', '--trust', '--cwd', workspaceWithServer()], {
      env: env(),
    });
    const names = JSON.parse(r.stdout).map((row: { name: string }) => row.name);
    expect(names).toContain('everything__echo');
    expect(names.indexOf('everything__echo')).toBeGreaterThan(names.indexOf('write_to_file'));
  });

  it('runs a server’s tool, with MCP approval', async () => {
    const dir = workspaceWithServer();
    const input = JSON.stringify({ message: 'hi there' });
    const denied = await latheAsync(['tool', 'everything__echo', '--input', input, '--cwd', dir, '--trust'], {
      env: env(),
    });
    expect(denied.stdout).toMatch(/--approve mcp/);
    const r = await latheAsync(
      ['tool', 'everything__echo', '--input', input, '--cwd', dir, '--approve', 'mcp', '--trust'],
      {
        env: env(),
      },
    );
    expect(r).toMatchObject({ code: 0 });
    expect(r.stdout).toMatch(/hi there/);
  });
});
