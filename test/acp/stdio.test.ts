import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { type ClientContext, ndJsonStream } from '@agentclientprotocol/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { LATHE_BIN } from '../support/cli.js';
import { FakeModelServer, type ScriptedTurn } from '../support/fake_model_server.js';
import { eventually, processesCarrying, uniqueToken } from '../support/processes.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';
import { FakeEditor } from './support.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function fakeServer(turns: ScriptedTurn[]) {
  const server = await FakeModelServer.start({ turns });
  cleanups.push(() => server.close());
  return server;
}

/** `lathe acp` as an editor starts it: a child process on a pipe, pointed at the fake model. */
function startAgent(server: FakeModelServer, home: string, token = uniqueToken('acp')) {
  const child = spawn(process.execPath, [LATHE_BIN, 'acp', '--model', 'anthropic/claude-sonnet-4-5'], {
    env: {
      ...process.env,
      LATHE_HOME: home,
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: 'test-key',
      LATHE_RETRY_BASE_MS: '10',
      LATHE_TEST_TOKEN: token,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return { child, exited, stderr: () => stderr, token };
}

/** The fake editor on the agent's pipes. */
function editorOn(child: ChildProcessWithoutNullStreams) {
  const editor = new FakeEditor();
  const connection = editor.app.connect(
    ndJsonStream(
      Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
    ),
  );
  return { editor, agent: connection.agent as ClientContext, connection };
}

/** Raw lines on the pipe: what a client that writes bad JSON sees. */
function rawLines(child: ChildProcessWithoutNullStreams) {
  const lines: Array<Record<string, unknown>> = [];
  let buffer = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    buffer += d;
    for (let at = buffer.indexOf('\n'); at >= 0; at = buffer.indexOf('\n')) {
      lines.push(JSON.parse(buffer.slice(0, at)));
      buffer = buffer.slice(at + 1);
    }
  });
  return lines;
}

describe('lathe acp over a real stdio pipe', () => {
  it('answers a malformed line and an unknown method with JSON-RPC errors, and stays up', async () => {
    const server = await fakeServer([]);
    const { child } = startAgent(server, tempDir('lathe-home-'));
    const lines = rawLines(child);
    const send = (message: Record<string, unknown>) =>
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    send({ id: 1, method: 'initialize', params: { protocolVersion: 1 } });
    child.stdin.write('this is not json\n');
    send({ id: 2, method: 'no/such_method', params: {} });
    send({ id: 3, method: 'session/list', params: {} });
    await eventually(() => lines.length >= 4);
    expect(lines.find((l) => l.id === 1)).toMatchObject({ result: { protocolVersion: 1 } });
    expect(lines.find((l) => l.id === null)).toMatchObject({ error: { code: -32700 } });
    expect(lines.find((l) => l.id === 2)).toMatchObject({ error: { code: -32601 } });
    expect(lines.find((l) => l.id === 3)).toMatchObject({ result: { sessions: [] } });
  });

  it('runs a session, and loads it again in a new agent process after the first was killed', async () => {
    const server = await fakeServer([{ text: 'Before the restart.' }, { text: 'After the restart.' }]);
    const home = tempDir('lathe-home-');
    const cwd = writeTree({ 'a.txt': 'A' }, 'lathe-acp-');
    const first = startAgent(server, home);
    const one = editorOn(first.child);
    await one.agent.request('initialize', { protocolVersion: 1 });
    const { sessionId } = await one.agent.request('session/new', { cwd, mcpServers: [] });
    const answer = await one.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'remember this' }],
    });
    expect(answer.stopReason).toBe('end_turn');
    expect(one.editor.text(sessionId)).toBe('Before the restart.');
    first.child.kill('SIGKILL');
    await first.exited;

    const second = startAgent(server, home);
    const two = editorOn(second.child);
    await two.agent.request('initialize', { protocolVersion: 1 });
    await two.agent.request('session/load', { sessionId, cwd, mcpServers: [] });
    expect(two.editor.text(sessionId, 'user_message_chunk')).toBe('remember this');
    expect(two.editor.text(sessionId)).toBe('Before the restart.');
    await two.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go on' }] });
    expect(two.editor.text(sessionId)).toBe('Before the restart.After the restart.');
    const lastRequest = server.requests.filter((r) => r.kind === 'model').at(-1)!;
    expect(JSON.stringify(lastRequest.body.messages)).toContain('remember this');
  });

  it('ends the turn, saves the session and exits with no process left when the editor goes mid-turn', async () => {
    const server = await fakeServer([
      { toolCalls: [{ name: 'execute_command', input: { command: 'sleep 60' } }] },
      { text: 'never read' },
    ]);
    const home = tempDir('lathe-home-');
    const cwd = writeTree({}, 'lathe-acp-');
    const agentProcess = startAgent(server, home);
    const { agent, editor } = editorOn(agentProcess.child);
    await agent.request('initialize', { protocolVersion: 1 });
    const { sessionId } = await agent.request('session/new', { cwd, mcpServers: [] });
    void agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'sleep' }] }).catch(() => undefined);
    await editor.waitFor(
      (u) => u.update.sessionUpdate === 'tool_call_update' && (u.update as { status?: string }).status === 'in_progress',
    );
    // The sleep runs; the editor goes away.
    await eventually(() => processesCarrying(agentProcess.token).length > 1);
    agentProcess.child.stdin.destroy();
    agentProcess.child.stdout.destroy();
    expect(await agentProcess.exited).toBe(0);
    await eventually(() => processesCarrying(agentProcess.token).length === 0);
    const logs = readdirSync(join(home, 'sessions'), { recursive: true }).map(String).filter((f) => f.endsWith('.jsonl'));
    expect(logs.some((f) => f.includes(sessionId))).toBe(true);
    const log = readFileSync(join(home, 'sessions', logs.find((f) => f.includes(sessionId))!), 'utf8');
    expect(log).toContain('"type":"session_end"');
  });
});
