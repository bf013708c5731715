// lathe's own overhead per tool call: a scripted 50-call session against the fake model server,
// in process, so model latency is zero and what is left is the loop, the executor and the tools.
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '../src/agent/agent.js';
import { capabilitiesFor } from '../src/provider/capabilities.js';
import { createModel } from '../src/provider/create_model.js';
import { createRuntime } from '../src/runtime/create_runtime.js';
import type { ScriptedTurn } from '../test/support/fake_model_server.js';
import { median, printTable } from './stats.js';

const CALLS = 50;
const RUNS = 7;

/** The fake server, run in a child process so its work is not counted as lathe's. */
interface ServerProcess {
  url: string;
  enqueue(turns: ScriptedTurn[]): Promise<void>;
  close(): void;
}

function startServerProcess(): Promise<ServerProcess> {
  const child: ChildProcess = fork(new URL('./fake_server_child.ts', import.meta.url), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve) => {
    child.once('message', (first: { url: string }) => {
      resolve({
        url: first.url,
        enqueue: (turns) =>
          new Promise((done) => {
            child.once('message', () => done());
            child.send({ enqueue: turns });
          }),
        close: () => child.send({ close: true }),
      });
    });
  });
}

interface SessionTime {
  wallMs: number;
  /** CPU time of this process (user + system): lathe's own work, without the server's. */
  cpuMs: number;
}

async function session(server: ServerProcess, calls: number): Promise<SessionTime> {
  const dir = mkdtempSync(join(tmpdir(), 'lathe-bench-agent-'));
  for (let i = 0; i < 10; i++)
    writeFileSync(join(dir, `f${i}.ts`), `export const v${i} = ${i};\n`.repeat(50));
  const turns: ScriptedTurn[] = [];
  for (let i = 0; i < calls; i++)
    turns.push({ toolCalls: [{ name: 'read_file', input: { path: `f${i % 10}.ts` } }] });
  turns.push({ text: 'Done.' });
  await server.enqueue(turns);
  const spec = { provider: 'anthropic' as const, modelId: 'claude-sonnet-4-5' };
  const runtime = createRuntime({
    cwd: dir,
    documentsRoot: mkdtempSync(join(tmpdir(), 'lathe-bench-home-')),
    env: {},
  });
  const model = await createModel(spec, { apiKey: 'bench', baseUrl: server.url });
  const agent = new Agent({
    runtime,
    model,
    modelName: 'anthropic/claude-sonnet-4-5',
    capabilities: capabilitiesFor(spec),
    user: { ask: async () => ({ answer: '', present: false }), confirm: async () => ({ approved: false }) },
  });
  const start = performance.now();
  const cpu = process.cpuUsage();
  const outcome = await agent.send('read the files');
  if (outcome.kind !== 'final_text') throw new Error(`session ended ${outcome.kind}: ${outcome.text}`);
  const used = process.cpuUsage(cpu);
  return { wallMs: performance.now() - start, cpuMs: (used.user + used.system) / 1000 };
}

export async function benchAgent(): Promise<Array<Record<string, string | number>>> {
  const server = await startServerProcess();
  try {
    await session(server, 5); // warm-up: module loading, grammar, first connections
    const empty: SessionTime[] = [];
    const full: SessionTime[] = [];
    for (let i = 0; i < RUNS; i++) {
      empty.push(await session(server, 0));
      full.push(await session(server, CALLS));
    }
    const wall = (list: SessionTime[]) => median(list.map((t) => t.wallMs));
    const cpu = (list: SessionTime[]) => median(list.map((t) => t.cpuMs));
    const perCallWall = (wall(full) - wall(empty)) / CALLS;
    const perCallCpu = (cpu(full) - cpu(empty)) / CALLS;
    const verdict = (ms: number) => (ms < 10 ? 'ok (< 10 ms)' : 'OVER 10 ms');
    return [
      {
        case: 'one-reply session (no tool calls)',
        'wall ms': wall(empty),
        'lathe CPU ms': cpu(empty),
        target: '',
      },
      { case: `${CALLS}-call session`, 'wall ms': wall(full), 'lathe CPU ms': cpu(full), target: '' },
      {
        case: 'per tool call, wall (the server included)',
        'wall ms': perCallWall,
        'lathe CPU ms': '',
        target: verdict(perCallWall),
      },
      {
        case: 'per tool call, lathe CPU only',
        'wall ms': '',
        'lathe CPU ms': perCallCpu,
        target: verdict(perCallCpu),
      },
    ];
  } finally {
    server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printTable(`agent loop overhead, medians of ${RUNS}`, await benchAgent());
}
