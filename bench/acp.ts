// The editor's path: `lathe acp` against the fake model server (in its own process).
//   first chunk  — the built command started on a pipe, `initialize` and `session/new` sent at
//                  once, timed to each answer and to the first agent_message_chunk;
//   per tool call — one turn of 50 read_file calls, through `lathe acp` in this process (the
//                  SDK's client connected to it) and through query() alone, interleaved; the
//                  difference over the calls is what the updates add to each.
// CPU (user+sys) of this process is given beside the wall times of the in-process runs.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { type ClientContext, client, ndJsonStream } from '@agentclientprotocol/sdk';
import { latheAgent } from '../src/acp/agent.js';
import type { AcpSession } from '../src/acp/session.js';
import { query } from '../src/sdk/query.js';
import type { ScriptedTurn } from '../test/support/fake_model_server.js';
import { latheEnv, startServer, type TimedServer } from './fake_server_process.js';
import { median } from './stats.js';

const RUNS = Number(process.env.LATHE_BENCH_RUNS) || 5;
const CALLS = 50;
const MODEL = 'anthropic/claude-sonnet-4-5';
const BIN = fileURLToPath(new URL('../dist/bin/lathe.js', import.meta.url));

function workspace(): { cwd: string; documentsRoot: string } {
  const root = mkdtempSync(join(tmpdir(), 'lathe-bench-acp-'));
  for (let i = 0; i < CALLS; i++) writeFileSync(join(root, `f${i}.txt`), `file ${i}\n`);
  return { cwd: root, documentsRoot: mkdtempSync(join(tmpdir(), 'lathe-bench-home-')) };
}

const readTurn = (): ScriptedTurn[] => [
  {
    toolCalls: Array.from({ length: CALLS }, (_, i) => ({ name: 'read_file', input: { path: `f${i}.txt` } })),
  },
  { text: 'Read them all.' },
];

interface FirstChunk {
  initialize: number;
  sessionNew: number;
  firstChunk: number;
}

/** A fresh `lathe acp` on a pipe: times from its start to each answer and the first chunk. */
async function firstChunk(server: TimedServer): Promise<FirstChunk> {
  await server.enqueue([{ text: 'Hello.' }]);
  const { cwd, documentsRoot } = workspace();
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, 'acp', '--model', MODEL], {
    env: latheEnv(server, documentsRoot),
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  let chunk = 0;
  let sawChunk: () => void = () => undefined;
  const chunked = new Promise<void>((resolve) => {
    sawChunk = resolve;
  });
  const app = client({ name: 'bench' }).onNotification('session/update', ({ params }) => {
    if (params.update.sessionUpdate === 'agent_message_chunk' && !chunk) {
      chunk = performance.now() - started;
      sawChunk();
    }
  });
  const connection = app.connect(
    ndJsonStream(
      Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
    ),
  );
  const agent = connection.agent;
  await agent.request('initialize', { protocolVersion: 1 });
  const initialize = performance.now() - started;
  const { sessionId } = await agent.request('session/new', { cwd, mcpServers: [] });
  const sessionNew = performance.now() - started;
  void agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] });
  await chunked;
  child.kill();
  await new Promise((resolve) => child.on('close', resolve));
  return { initialize, sessionNew, firstChunk: chunk };
}

interface Turn {
  ms: number;
  cpuMs: number;
}

const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

/** One turn of CALLS reads through `lathe acp` in this process. */
async function throughAcp(server: TimedServer): Promise<Turn> {
  const { cwd, documentsRoot } = workspace();
  const sessions = new Map<string, AcpSession>();
  const app = client({ name: 'bench' }).onNotification('session/update', () => undefined);
  const connection = app.connect(
    latheAgent(
      { documentsRoot, model: MODEL, baseUrl: server.url, apiKey: 'bench', stderr: () => {} },
      sessions,
    ),
  );
  const agent = connection.agent as ClientContext;
  await agent.request('initialize', { protocolVersion: 1 });
  const { sessionId } = await agent.request('session/new', { cwd, mcpServers: [] });
  await server.enqueue(readTurn());
  const cpu = process.cpuUsage();
  const started = performance.now();
  await agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'read them' }] });
  const turn = { ms: performance.now() - started, cpuMs: cpuMs(cpu) };
  await Promise.all([...sessions.values()].map((session) => session.close()));
  connection.close();
  return turn;
}

/** The same turn through query() alone, its messages read and dropped. */
async function throughQuery(server: TimedServer): Promise<Turn> {
  const { cwd, documentsRoot } = workspace();
  let next: (text: string | undefined) => void = () => undefined;
  async function* prompts() {
    for (;;) {
      const text = await new Promise<string | undefined>((resolve) => {
        next = resolve;
      });
      if (text === undefined) return;
      yield text;
    }
  }
  const run = query({
    prompt: prompts(),
    options: { cwd, documentsRoot, model: MODEL, baseUrl: server.url, apiKey: 'bench', stderr: () => {} },
  });
  const iterator = run[Symbol.asyncIterator]();
  await iterator.next(); // the init record: the run is ready
  await server.enqueue(readTurn());
  const cpu = process.cpuUsage();
  const started = performance.now();
  next('read them');
  for (;;) {
    const { value, done } = await iterator.next();
    if (done || value.type === 'result') break;
  }
  const turn = { ms: performance.now() - started, cpuMs: cpuMs(cpu) };
  next(undefined);
  await run.result.catch(() => undefined);
  return turn;
}

export async function benchAcp(): Promise<Array<Record<string, string | number>>> {
  const server = await startServer();
  try {
    const starts: FirstChunk[] = [];
    const viaAcp: Turn[] = [];
    const viaQuery: Turn[] = [];
    await firstChunk(server); // warm-up: the disk cache
    await throughAcp(server);
    await throughQuery(server);
    for (let i = 0; i < RUNS; i++) {
      starts.push(await firstChunk(server));
      viaQuery.push(await throughQuery(server));
      viaAcp.push(await throughAcp(server));
    }
    const ms = (values: number[]) => median(values).toFixed(1);
    const added = median(viaAcp.map((a, i) => (a.ms - viaQuery[i].ms) / CALLS));
    const addedCpu = median(viaAcp.map((a, i) => (a.cpuMs - viaQuery[i].cpuMs) / CALLS));
    return [
      {
        case: 'lathe acp started → initialize answered',
        'median ms': ms(starts.map((s) => s.initialize)),
        runs: RUNS,
      },
      { case: '… → session/new answered', 'median ms': ms(starts.map((s) => s.sessionNew)), runs: RUNS },
      { case: '… → first agent_message_chunk', 'median ms': ms(starts.map((s) => s.firstChunk)), runs: RUNS },
      {
        case: `${CALLS} read_file calls, query() alone (wall / CPU ms)`,
        'median ms': `${ms(viaQuery.map((t) => t.ms))} / ${ms(viaQuery.map((t) => t.cpuMs))}`,
        runs: RUNS,
      },
      {
        case: `${CALLS} read_file calls, through lathe acp (wall / CPU ms)`,
        'median ms': `${ms(viaAcp.map((t) => t.ms))} / ${ms(viaAcp.map((t) => t.cpuMs))}`,
        runs: RUNS,
      },
      {
        case: 'updates: added ms per tool call (wall / CPU, median of run pairs)',
        'median ms': `${added.toFixed(3)} / ${addedCpu.toFixed(3)}`,
        runs: RUNS,
      },
    ];
  } finally {
    server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { printTable } = await import('./stats.js');
  printTable('ACP: lathe acp against the fake model', await benchAcp());
}
