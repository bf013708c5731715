import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { type ClientContext, ndJsonStream } from '@agentclientprotocol/sdk';
import { LATHE_BIN } from '../support/cli.js';
import { FakeModelServer, type ScriptedTurn } from '../support/fake_model_server.js';
import { uniqueToken } from '../support/processes.js';
import { FakeEditor } from './support.js';

const cleanups: Array<() => unknown> = [];

/** Ends the agents and servers a test started (in afterEach). */
export async function cleanUp(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}

export async function fakeServer(turns: ScriptedTurn[]) {
  const server = await FakeModelServer.start({ turns });
  cleanups.push(() => server.close());
  return server;
}

/** `lathe acp` as an editor starts it: a child process on a pipe, pointed at the fake model. */
export function startAgent(server: FakeModelServer, home: string, token = uniqueToken('acp')) {
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
export function editorOn(child: ChildProcessWithoutNullStreams) {
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
export function rawLines(child: ChildProcessWithoutNullStreams) {
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
