// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} in MCP files is expanded by lathe, not by JavaScript
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lathe, latheAsync } from '../support/cli.js';
import { FakeModelServer } from '../support/fake_model_server.js';
import { MISBEHAVING_SERVER } from '../support/mcp_servers/peers.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

const env = (home: string) => ({ LATHE_HOME: home, NODE_ENV: 'test' });
const globalFile = (home: string) => join(home, 'settings', 'mcp_settings.json');

describe('lathe mcp add / list / test / remove', () => {
  it('adds a stdio server to the global file, lists, tests and removes it', async () => {
    const home = tempDir('lathe-home-');
    const cwd = tempDir();
    const added = lathe(
      ['mcp', 'add', 'bad', '--auto-approve', 'echo', '--', process.execPath, MISBEHAVING_SERVER],
      {
        cwd,
        env: env(home),
      },
    );
    expect(added.stdout).toContain(`Added MCP server "bad" in ${globalFile(home)}`);
    expect(JSON.parse(readFileSync(globalFile(home), 'utf8')).mcpServers.bad).toEqual({
      command: process.execPath,
      args: [MISBEHAVING_SERVER],
      autoApprove: ['echo'],
    });

    const listed = await latheAsync(['mcp', 'list'], { cwd, env: env(home) });
    expect(listed.stdout).toMatch(/^server\s+transport\s+status\s+tools\s+auth\s+source$/m);
    expect(listed.stdout).toMatch(/^bad\s+stdio\s+connected \(\d+ ms\)\s+10\s+/m);

    const tested = await latheAsync(['mcp', 'test', 'bad'], { cwd, env: env(home) });
    expect(tested.code).toBe(0);
    expect(tested.stdout).toMatch(/MCP server "bad" \(stdio\) connected in \d+ ms/);
    expect(tested.stdout).toContain('10 tools: echo, pid, crash');
    expect(tested.stdout).toMatch(/round trip \(ping, median of 5\): \d+\.\d\d ms/);

    const removed = lathe(['mcp', 'remove', 'bad'], { cwd, env: env(home) });
    expect(removed.stdout).toContain(`Removed MCP server "bad" from ${globalFile(home)}`);
    expect(lathe(['mcp', 'list'], { cwd, env: env(home) }).stdout).toMatch(/No MCP servers configured/);
  });

  it('adds an HTTP server with headers to the workspace', () => {
    const home = tempDir('lathe-home-');
    const cwd = tempDir();
    const args = [
      'mcp',
      'add',
      'web',
      '--url',
      'http://127.0.0.1:9/mcp',
      '--header',
      'Authorization: Bearer ${T}',
    ];
    const r = lathe([...args, '--workspace'], { cwd, env: env(home) });
    expect(r.code).toBe(0);
    const file = join(cwd, '.agents', 'mcp', 'web.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      mcpServers: { web: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer ${T}' } } },
    });
    expect(lathe(['mcp', 'remove', 'web'], { cwd, env: env(home) }).code).toBe(0);
    expect(existsSync(file)).toBe(false);
  });

  it('lists a failing server of a trusted folder with its reason', async () => {
    const home = tempDir('lathe-home-');
    const cwd = writeTree({
      '.agents/mcp/fail.json': JSON.stringify({
        mcpServers: { fail: { command: process.execPath, args: [MISBEHAVING_SERVER, '--exit-at-start'] } },
      }),
    });
    const r = await latheAsync(['mcp', 'list', '--trust'], { cwd, env: env(home) });
    expect(r.stdout).toMatch(/^fail\s+stdio\s+failed\s+-/m);
    expect(r.stdout).toMatch(
      /fail: the server closed the connection; it said: misbehaving: missing configuration file/,
    );
  });

  it('stops at a file that does not parse, naming it and the line', () => {
    const home = tempDir('lathe-home-');
    const cwd = writeTree({ '.agents/mcp/broken.json': '{ nope' });
    const r = lathe(['mcp', 'list'], { cwd, env: env(home) });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `lathe: ${join(cwd, '.agents', 'mcp', 'broken.json')}:1:3: expected a "quoted" property name or }\n`,
    );
  });

  it('prints [] as JSON when no server is configured', () => {
    const r = lathe(['mcp', 'list', '--json'], { cwd: tempDir(), env: env(tempDir('lathe-home-')) });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
  });

  it('refuses a server name that is not letters, digits, _ and -', () => {
    const home = tempDir('lathe-home-');
    for (const name of ['my server', 'a/b', 'x.y', 'dé']) {
      const r = lathe(['mcp', 'add', name, '--', 'true'], { env: env(home) });
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(
          new RegExp(`^lathe: MCP server name "${name}" may hold only A-Z, a-z, 0-9, _ and -`),
        ),
      ]);
    }
    expect(existsSync(globalFile(home))).toBe(false);
    expect(lathe(['mcp', 'add', 'My_server-2', '--', 'true'], { env: env(home) }).code).toBe(0);
  });

  it('says which servers exist when testing or removing an unknown one', () => {
    const home = tempDir('lathe-home-');
    lathe(['mcp', 'add', 'one', '--', 'true'], { env: env(home) });
    const tested = lathe(['mcp', 'test', 'two'], { env: env(home) });
    expect(tested.code).toBe(1);
    expect(tested.stderr).toContain('no MCP server "two" (configured: one)');
    expect(lathe(['mcp', 'remove', 'two'], { env: env(home) }).stderr).toContain('(configured: one)');
  });

  it('refuses add without a command or url', () => {
    const r = lathe(['mcp', 'add', 'x'], { env: env(tempDir()) });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('mcp add needs a command (after --) or --url URL');
  });
});

describe('lathe -p with MCP servers', () => {
  let server: FakeModelServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('connects in the background, calls MCP tools, reports a failing server and exits cleanly', async () => {
    const workspace = writeTree({ 'a.txt': 'x\n' });
    mkdirSync(join(workspace, '.agents', 'mcp'), { recursive: true });
    writeFileSync(
      join(workspace, '.agents', 'mcp', 'servers.json'),
      JSON.stringify({
        mcpServers: {
          bad: { command: process.execPath, args: [MISBEHAVING_SERVER], autoApprove: ['echo'] },
          down: { command: process.execPath, args: [MISBEHAVING_SERVER, '--exit-at-start'] },
        },
      }),
    );
    server = await FakeModelServer.start({
      turns: [
        { toolCalls: [{ name: 'read_file', input: { path: 'a.txt' } }] },
        {
          toolCalls: [
            {
              name: 'use_mcp_tool',
              input: { server_name: 'bad', tool_name: 'echo', arguments: { text: 'via generic' } },
            },
          ],
        },
        { toolCalls: [{ name: 'bad__echo', input: { text: 'direct' } }] },
        { toolCalls: [{ name: 'attempt_completion', input: { result: 'done' } }] },
      ],
    });
    const r = await latheAsync(
      [
        '-p',
        'use the MCP server',
        '--model',
        'anthropic/claude-sonnet-4-5',
        '--output-format',
        'json',
        '--trust',
      ],
      {
        cwd: workspace,
        env: { ...env(tempDir('lathe-home-')), ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'k' },
      },
    );
    expect(r.code).toBe(0);
    const failures = r.stderr.split('\n').filter((l) => l.includes('"down"'));
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/^lathe: MCP server "down" failed to connect: .*\(retried on next use\)$/);
    const requests = server.requests.filter((q) => q.kind === 'model');
    expect(requests[2].toolResults[0].content).toContain('via generic');
    expect(requests[2].toolNames).toContain('bad__echo');
    expect(requests[3].toolResults[0].content).toContain('direct');
  });
});
