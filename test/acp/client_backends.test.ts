import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type AgentConnection,
  agent,
  type ClientConnection,
  client,
  ndJsonStream,
} from '@agentclientprotocol/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { clientBackends } from '../../src/acp/client_backends.js';
import { query } from '../../src/sdk/query.js';
import type { EditorCommand } from '../../src/tool/context/editor.js';
import { closeSdkServers, sdkSetup } from '../sdk/support.js';
import { ProcessTerminal } from '../support/program_editor.js';
import { testNeeds } from '../support/required_programs.js';

const SESSION = 'sess-1';
const connections: Array<AgentConnection | ClientConnection> = [];

afterEach(async () => {
  for (const connection of connections.splice(0)) connection.close();
  await closeSdkServers();
});

interface Terminal {
  done: Promise<{ output: string; exitCode: number | null; signal: string | null; truncated: boolean }>;
  result?: { output: string; exitCode: number | null; signal: string | null; truncated: boolean };
  stop: AbortController;
}

/**
 * An editor speaking ACP through the SDK's client side, over a pair of newline-delimited JSON
 * streams to an agent-side connection: buffers by path (a path it does not hold is "not found"),
 * terminals that run real processes. Every request it gets is listed, with its params.
 */
function editorConnection(buffers: Map<string, string>) {
  const requests: Array<{ method: string; params: Record<string, unknown> }> = [];
  const terminals = new Map<string, Terminal>();
  const processes = new ProcessTerminal();
  const note = (method: string, params: object) => requests.push({ method, params: { ...params } });
  const toAgent = new TransformStream<Uint8Array, Uint8Array>();
  const toEditor = new TransformStream<Uint8Array, Uint8Array>();
  const editorSide = client()
    .onRequest('fs/read_text_file', ({ params }) => {
      note('fs/read_text_file', params);
      const content = buffers.get(params.path);
      if (content === undefined) throw new Error(`${params.path} is not open`);
      return { content };
    })
    .onRequest('fs/write_text_file', ({ params }) => {
      note('fs/write_text_file', params);
      buffers.set(params.path, params.content);
      return {};
    })
    .onRequest('terminal/create', ({ params }) => {
      note('terminal/create', params);
      const id = `term-${terminals.size + 1}`;
      const stop = new AbortController();
      const argv = [params.command, ...(params.args ?? [])];
      const terminal: Terminal = {
        stop,
        done: processes.run(argv, params.cwd ?? '/', stop.signal, params.outputByteLimit ?? undefined),
      };
      void terminal.done.then((result) => {
        terminal.result = result;
      });
      terminals.set(id, terminal);
      return { terminalId: id };
    })
    .onRequest('terminal/wait_for_exit', async ({ params }) => {
      note('terminal/wait_for_exit', params);
      const { exitCode, signal } = await terminals.get(params.terminalId)!.done;
      return { exitCode, signal };
    })
    .onRequest('terminal/output', ({ params }) => {
      note('terminal/output', params);
      const { result } = terminals.get(params.terminalId)!;
      return {
        output: result?.output ?? '',
        truncated: result?.truncated ?? false,
        exitStatus: result ? { exitCode: result.exitCode, signal: result.signal } : null,
      };
    })
    .onRequest('terminal/kill', ({ params }) => {
      note('terminal/kill', params);
      terminals.get(params.terminalId)?.stop.abort();
      return {};
    })
    .onRequest('terminal/release', ({ params }) => {
      note('terminal/release', params);
      terminals.get(params.terminalId)?.stop.abort();
      terminals.delete(params.terminalId);
      return {};
    })
    .connect(ndJsonStream(toAgent.writable, toEditor.readable));
  const agentSide = agent().connect(ndJsonStream(toEditor.writable, toAgent.readable));
  connections.push(editorSide, agentSide);
  return { connection: agentSide.client, requests, processes, terminals };
}

const everything = { fs: { readTextFile: true, writeTextFile: true }, terminal: true };

function command(argv: string[], signal = new AbortController().signal): EditorCommand {
  return { argv, command: argv.join(' '), cwd: process.cwd(), signal };
}

describe('clientBackends', () => {
  it('offers only what the client said it can do, and nothing for a client that offers nothing', () => {
    const { connection } = editorConnection(new Map());
    const readOnly = clientBackends(connection, SESSION, { fs: { readTextFile: true } });
    expect(readOnly?.readTextFile).toBeTypeOf('function');
    expect(readOnly?.writeTextFile).toBeUndefined();
    expect(readOnly?.terminal).toBeUndefined();
    expect(clientBackends(connection, SESSION, { fs: {}, terminal: false })).toBeUndefined();
    expect(clientBackends(connection, SESSION, undefined)).toBeUndefined();
  });

  it("reads the client's buffer, and leaves a file it cannot read to the disk", async () => {
    const { connection, requests } = editorConnection(new Map([['/w/a.ts', 'unsaved\n']]));
    const editor = clientBackends(connection, SESSION, everything)!;
    expect(await editor.readTextFile!('/w/a.ts')).toBe('unsaved\n');
    expect(await editor.readTextFile!('/w/closed.ts')).toBeUndefined();
    expect(requests.map((r) => r.params)).toEqual([
      { sessionId: SESSION, path: '/w/a.ts' },
      { sessionId: SESSION, path: '/w/closed.ts' },
    ]);
  });

  it('writes through fs/write_text_file', async () => {
    const buffers = new Map<string, string>();
    const { connection } = editorConnection(buffers);
    await clientBackends(connection, SESSION, everything)!.writeTextFile!('/w/b.ts', 'new\n');
    expect(buffers.get('/w/b.ts')).toBe('new\n');
  });

  it('runs a command in a client terminal: its output and exit code, the terminal released', async () => {
    const { connection, requests } = editorConnection(new Map());
    const shown: string[] = [];
    const editor = clientBackends(connection, SESSION, everything, {
      onTerminal: (id, run) => shown.push(`${id} ${run.command}`),
    })!;
    const result = await editor.terminal!.run({
      ...command(['bash', '-c', 'echo out; echo err >&2; exit 3']),
      outputLimit: 4096,
    });
    expect(result).toMatchObject({ exitCode: 3, truncated: false });
    expect(result.output).toContain('out');
    expect(result.output).toContain('err');
    expect(shown).toEqual(['term-1 bash -c echo out; echo err >&2; exit 3']);
    expect(requests.map((r) => r.method)).toEqual([
      'terminal/create',
      'terminal/wait_for_exit',
      'terminal/output',
      'terminal/release',
    ]);
    expect(requests[0].params).toMatchObject({
      sessionId: SESSION,
      command: 'bash',
      args: ['-c', 'echo out; echo err >&2; exit 3'],
      cwd: process.cwd(),
      outputByteLimit: 4096,
    });
  });

  it("kills the client's terminal when the command's signal aborts", async () => {
    const { connection, requests, processes } = editorConnection(new Map());
    const editor = clientBackends(connection, SESSION, everything)!;
    const stop = new AbortController();
    const running = editor.terminal!.run(command(['sleep', '30'], stop.signal));
    await processes.nextStart();
    stop.abort();
    const result = await running;
    expect(result.exitCode).toBeNull();
    expect(result.signal).toBe('SIGKILL');
    expect(requests.map((r) => r.method)).toContain('terminal/kill');
    expect(processes.runs[0].stopped).toBe(true);
  });
});

describe('a query whose editor is an ACP client', () => {
  testNeeds('bwrap')(
    "reads the client's buffer, writes the edit there, and runs the command in its terminal",
    async () => {
      const { options, cwd, modelRequests } = await sdkSetup(
        [
          { toolCalls: [{ name: 'read_file', input: { path: 'main.ts' } }] },
          {
            toolCalls: [
              { name: 'edit_file', input: { path: 'main.ts', old_string: 'draft', new_string: 'done' } },
            ],
          },
          { toolCalls: [{ name: 'execute_command', input: { command: 'echo ran-in-editor' } }] },
          { toolCalls: [{ name: 'attempt_completion', input: { result: 'Done.' } }] },
        ],
        { 'main.ts': 'const state = "saved";\n' },
      );
      const main = join(cwd, 'main.ts');
      const buffers = new Map([[main, 'const state = "draft";\n']]);
      const { connection, requests } = editorConnection(buffers);
      await query({
        prompt: 'finish it',
        options: {
          ...options,
          approve: ['edit'],
          settings: { lsp: { diagnosticsAfterEdit: false } },
          editor: clientBackends(connection, SESSION, everything),
        },
      }).result;
      expect(modelRequests()[1].toolResults[0].content).toContain('const state = "draft";');
      expect(buffers.get(main)).toBe('const state = "done";\n');
      expect(readFileSync(main, 'utf8')).toBe('const state = "saved";\n');
      expect(modelRequests()[3].toolResults[0].content).toContain('ran-in-editor');
      expect(requests.filter((r) => r.method === 'fs/write_text_file').map((r) => r.params)).toEqual([
        { sessionId: SESSION, path: main, content: 'const state = "done";\n' },
      ]);
      expect(requests.some((r) => r.method === 'terminal/create')).toBe(true);
    },
  );
});
