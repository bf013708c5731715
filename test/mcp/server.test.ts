import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpHub } from '../../src/mcp/hub.js';
import { LATHE_BIN } from '../support/cli.js';
import { serverConfig, stopChild } from '../support/mcp_servers/peers.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

const INSPECTOR = createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/cli/build/cli.js');

const textOf = (result: unknown) =>
  ((result as { content: Array<{ type: string; text?: string }> }).content[0] as { text: string }).text;

function environment(home: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return { ...env, LATHE_HOME: home, NODE_ENV: 'test' };
}

async function stdioClient(workspace: string, extra: string[] = []): Promise<Client> {
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [LATHE_BIN, 'mcp', 'serve', '--cwd', workspace, ...extra],
      env: environment(tempDir('lathe-home-')),
      stderr: 'pipe',
    }),
  );
  return client;
}

describe('lathe mcp serve: the tools offered and their hints come from the declarations', () => {
  let client: Client;
  beforeAll(async () => {
    const features = ['focus_chain', 'tasks', 'triggers'].flatMap((f) => ['--feature', f]);
    client = await stdioClient(tempDir(), features);
  });
  afterAll(() => client.close());

  it('declares prompts and answers prompts/list with none', async () => {
    expect(client.getServerCapabilities()?.prompts).toEqual({});
    expect(await client.listPrompts()).toEqual({ prompts: [] });
  });

  it('does not offer change_todo_list, which needs a running agent', async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('task_create');
    expect(names).not.toContain('change_todo_list');
  });

  it('marks the tools that delete or overwrite destructive, and edits that only change not', async () => {
    const hints = Object.fromEntries(
      (await client.listTools()).tools.map((t) => [t.name, t.annotations?.destructiveHint]),
    );
    for (const name of ['write_to_file', 'apply_patch', 'kill_command', 'task_stop', 'cron_delete'])
      expect(hints[name], name).toBe(true);
    expect(hints.replace_in_file).toBe(false);
    expect(hints.read_file).toBeUndefined();
  });
});

describe('lathe mcp serve (stdio), driven by the SDK client', () => {
  const workspace = writeTree({ 'a.txt': 'hello\n', 'src/b.ts': 'export const b = 1;\n' });
  let client: Client;
  beforeAll(async () => {
    client = await stdioClient(workspace);
  });
  afterAll(() => client.close());

  it('lists lathe’s tools with their schemas and hints, not the agent-only ones', async () => {
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.read_file.inputSchema).toMatchObject({
      type: 'object',
      properties: { path: { type: 'string' } },
    });
    expect(byName.read_file.annotations?.readOnlyHint).toBe(true);
    expect(byName.write_to_file.annotations?.readOnlyHint).toBe(false);
    expect(byName.attempt_completion).toBeUndefined();
    expect(byName.ask_followup_question).toBeUndefined();
  });

  it('runs a tool and returns its result', async () => {
    expect(textOf(await client.callTool({ name: 'read_file', arguments: { path: 'a.txt' } }))).toBe(
      '1\thello',
    );
    const found = await client.callTool({ name: 'glob', arguments: { pattern: '**/*.ts' } });
    expect(textOf(found)).toContain('src/b.ts');
  });

  it('turns an ask into a denial (no one can approve)', async () => {
    const result = await client.callTool({
      name: 'write_to_file',
      arguments: { path: 'c.txt', content: 'x' },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/no one is present to approve it \(rerun with --approve edit or --yolo/);
  });

  it('answers an unknown tool or bad input with an error result', async () => {
    const unknown = await client.callTool({ name: 'nope', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/Unknown tool "nope". Tools: .*read_file/);
    const invalid = await client.callTool({ name: 'read_file', arguments: { nope: 1 } });
    expect(textOf(invalid)).toMatch(/Invalid arguments for read_file/);
  });
});

describe('lathe mcp serve --approve', () => {
  it('runs edits the command line approves', async () => {
    const workspace = tempDir();
    const client = await stdioClient(workspace, ['--approve', 'edit']);
    try {
      const result = await client.callTool({
        name: 'write_to_file',
        arguments: { path: 'c.txt', content: 'x' },
      });
      expect(result.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });
});

describe('lathe mcp serve --http', () => {
  const workspace = writeTree({ 'a.txt': 'over http\n' });
  let child: ChildProcess;
  let url: string;
  let token: string;
  beforeAll(async () => {
    child = spawn(process.execPath, [LATHE_BIN, 'mcp', 'serve', '--http', '0', '--cwd', workspace], {
      env: environment(tempDir('lathe-home-')),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const printed = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        if (out.includes('Bearer ')) resolve(out);
      });
      child.once('exit', (code) => reject(new Error(`lathe mcp serve exited with ${code}`)));
    });
    url = /lathe MCP server: (\S+)/.exec(printed)![1];
    token = /Authorization: Bearer (\S+)/.exec(printed)![1];
  });
  afterAll(() => stopChild(child));

  it('listens on 127.0.0.1 and prints a bearer token', () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(token.length).toBeGreaterThanOrEqual(32);
  });

  it('refuses a request without the token', async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
    const wrong = await fetch(url, {
      method: 'POST',
      headers: { authorization: 'Bearer wrong' },
      body: '{}',
    });
    expect(wrong.status).toBe(401);
  });

  it('serves the SDK client that sends the token', async () => {
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('search_files');
      expect(textOf(await client.callTool({ name: 'read_file', arguments: { path: 'a.txt' } }))).toBe(
        '1\tover http',
      );
    } finally {
      await client.close();
    }
  });

  it('serves lathe’s own MCP client, headers from its settings', async () => {
    const hub = new McpHub([serverConfig('lathe', { url, headers: { Authorization: `Bearer ${token}` } })]);
    try {
      await hub.connectAll();
      const out = await hub.callTool(
        'lathe',
        'read_file',
        { path: 'a.txt' },
        { signal: new AbortController().signal },
      );
      expect(out.text).toBe('1\tover http');
    } finally {
      await hub.close();
    }
  });
});

describe('lathe mcp serve, driven by the MCP Inspector CLI', () => {
  const workspace = writeTree({ 'a.txt': 'inspected\n' });
  const inspect = (args: string[]) =>
    promisify(execFile)(
      process.execPath,
      [INSPECTOR, '--cli', process.execPath, LATHE_BIN, 'mcp', 'serve', '--cwd', workspace, ...args],
      { env: environment(tempDir('lathe-home-')), timeout: 20_000 },
    );

  it('lists the tools', async () => {
    const { stdout } = await inspect(['--method', 'tools/list']);
    const names = (JSON.parse(stdout).tools as Array<{ name: string }>).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['read_file', 'search_files', 'execute_command']));
  });

  it('calls a tool', async () => {
    const { stdout } = await inspect([
      '--method',
      'tools/call',
      '--tool-name',
      'read_file',
      '--tool-arg',
      'path=a.txt',
    ]);
    expect(JSON.parse(stdout).content[0].text).toBe('1\tinspected');
  });
});
