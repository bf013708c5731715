import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { LATHE_BIN, lathe, latheAsync } from '../support/cli.js';
import { FakeModelServer } from '../support/fake_model_server.js';
import { pathWithoutBubblewrap } from '../support/no_bubblewrap.js';
import { tempDir } from '../support/runtime_fixtures.js';

// Every lathe here runs with a PATH that has no bubblewrap, as on a machine without it.
const PATH = pathWithoutBubblewrap();
const env = () => ({ LATHE_HOME: tempDir('lathe-home-'), LATHE_FEATURES: '', NODE_ENV: 'test', PATH });

const UNAVAILABLE =
  'the sandbox is unavailable: bubblewrap (bwrap) is not installed; install it (apt install bubblewrap) ' +
  'or pass --sandbox off to run commands without it';
const REFUSAL = `Not run: ${UNAVAILABLE}.`;

describe('lathe tool without bubblewrap', () => {
  it('refuses a command, prints the refusal, and says so on stderr with the flag to use', () => {
    const dir = tempDir();
    const r = lathe(['tool', 'execute_command', '--yolo', '--input', '{"command":"touch made"}'], {
      cwd: dir,
      env: env(),
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(`${REFUSAL}\n`);
    expect(r.stderr).toBe(`lathe: commands are refused: ${UNAVAILABLE}\n`);
    expect(existsSync(join(dir, 'made'))).toBe(false);
  });

  it('runs it bare with --sandbox off, without a word about the sandbox', () => {
    const dir = tempDir();
    const r = lathe(
      ['tool', 'execute_command', '--yolo', '--sandbox', 'off', '--input', '{"command":"touch made"}'],
      { cwd: dir, env: env() },
    );
    expect(r).toMatchObject({ code: 0, stdout: '(no output)\n\nExit code 0.\n', stderr: '' });
    expect(existsSync(join(dir, 'made'))).toBe(true);
  });
});

describe('lathe mcp serve without bubblewrap', () => {
  let client: Client | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });

  async function serve(workspace: string, extra: string[]) {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [LATHE_BIN, 'mcp', 'serve', '--cwd', workspace, ...extra],
      env: { ...(process.env as Record<string, string>), ...env() },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    client = new Client({ name: 'test', version: '1' });
    await client.connect(transport);
    return { client, stderr: () => stderr };
  }

  const textOf = (result: unknown) =>
    (result as { content: Array<{ text: string }>; isError?: boolean }).content[0].text;

  it('refuses commands, even with --yolo, and says why where it was started', async () => {
    const dir = tempDir();
    const served = await serve(dir, ['--yolo']);
    const result = await served.client.callTool({
      name: 'execute_command',
      arguments: { command: 'touch made' },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(REFUSAL);
    expect(existsSync(join(dir, 'made'))).toBe(false);
    expect(served.stderr()).toContain(`lathe: commands are refused: ${UNAVAILABLE}\n`);
  });

  it('runs them with --sandbox off', async () => {
    const dir = tempDir();
    const served = await serve(dir, ['--yolo', '--sandbox', 'off']);
    const result = await served.client.callTool({
      name: 'execute_command',
      arguments: { command: 'touch made' },
    });
    expect(textOf(result)).toBe('(no output)\n\nExit code 0.');
    expect(existsSync(join(dir, 'made'))).toBe(true);
  });
});

describe('lathe -p without bubblewrap', () => {
  let server: FakeModelServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function run(extra: string[]) {
    server = await FakeModelServer.start({
      turns: [
        { toolCalls: [{ name: 'execute_command', input: { command: 'touch made' } }] },
        { text: 'Done.' },
      ],
    });
    const dir = tempDir();
    const r = await latheAsync(['-p', 'touch it', '--model', 'anthropic/claude-sonnet-4-5', ...extra], {
      cwd: dir,
      env: { ...env(), ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test-key' },
    });
    const toolResult = server.requests.filter((q) => q.kind === 'model')[1].toolResults[0].content;
    return { ...r, dir, toolResult };
  }

  it('refuses commands under --yolo and says so on stderr', async () => {
    const r = await run(['--yolo']);
    expect(r.toolResult).toBe(REFUSAL);
    expect(r.stderr).toContain(`lathe: commands are refused: ${UNAVAILABLE}\n`);
    expect(existsSync(join(r.dir, 'made'))).toBe(false);
  });

  it('runs them with --sandbox off', async () => {
    const r = await run(['--yolo', '--sandbox', 'off']);
    expect(r.toolResult).toBe('(no output)\n\nExit code 0.');
    expect(existsSync(join(r.dir, 'made'))).toBe(true);
  });
});
