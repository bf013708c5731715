// The SDK's event path: a 10,000-token answer streamed as 10,000 text deltas by the fake server
// (in its own process), read two ways in this process, interleaved run by run:
//   query()        — every message through query()'s async iterator, printed as a JSON line;
//   agent events   — the path `lathe -p --output-format stream-json` took before it used query():
//                    the agent's events straight to the session log and a JSON line each.
// Events per second count the messages from the first text delta to the result; the added
// latency per event is the difference of the two times over the number of events.
// With LATHE_BENCH_BASELINE (an earlier build's dist/bin/lathe.js) the built command is compared
// with it too: `lathe -p --output-format stream-json`, timed from its first text delta on stdout
// to its result line.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent } from '../src/agent/agent.js';
import { recordAgentEvent } from '../src/agent/session_record.js';
import { createRuntime } from '../src/runtime/create_runtime.js';
import { query } from '../src/sdk/query.js';
import { eventRecord } from '../src/sdk/records.js';
import { openSessionLog, setUpModel } from '../src/sdk/run_setup.js';
import { headlessUserSide } from '../src/sdk/user_side.js';
import type { ScriptedTurn } from '../test/support/fake_model_server.js';
import { latheEnv, startServer, type TimedServer } from './fake_server_process.js';
import { median } from './stats.js';

const RUNS = Number(process.env.LATHE_BENCH_RUNS) || 7;
const TOKENS = 10_000;
const MODEL = 'anthropic/claude-sonnet-4-5';
const BIN = fileURLToPath(new URL('../dist/bin/lathe.js', import.meta.url));

const answer: ScriptedTurn = {
  text: 'word '.repeat(TOKENS),
  textPieces: TOKENS,
  usage: { inputTokens: 2_000, outputTokens: TOKENS },
};

/** One run's time from the first text delta to the end, and the events in it. */
interface Timing {
  ms: number;
  events: number;
}

function workspace(): { cwd: string; documentsRoot: string } {
  const root = mkdtempSync(join(tmpdir(), 'lathe-bench-sdk-'));
  writeFileSync(join(root, 'README.md'), '# bench\n');
  return { cwd: root, documentsRoot: mkdtempSync(join(tmpdir(), 'lathe-bench-home-')) };
}

/** A sink that costs what a pipe's write call costs in JS, not the pipe's reader. */
const sink = { write: (line: string) => line.length };

async function throughQuery(server: TimedServer): Promise<Timing> {
  await server.enqueue([answer]);
  const run = query({
    prompt: 'write a long answer',
    options: { ...workspace(), model: MODEL, baseUrl: server.url, apiKey: 'bench', stderr: () => {} },
  });
  let first = 0;
  let events = 0;
  for await (const message of run) {
    sink.write(`${JSON.stringify(message)}\n`);
    if (message.type === 'text_delta' && first === 0) first = performance.now();
    if (first > 0) events++;
  }
  return { ms: performance.now() - first, events };
}

async function throughAgentEvents(server: TimedServer): Promise<Timing> {
  await server.enqueue([answer]);
  const runtime = createRuntime(workspace());
  const setup = await setUpModel(runtime, MODEL, { baseUrl: server.url, apiKey: 'bench' });
  const log = openSessionLog(runtime, undefined, { model: MODEL });
  let first = 0;
  let events = 0;
  const agent = new Agent({
    runtime,
    model: setup.model,
    modelName: setup.modelName,
    capabilities: setup.capabilities,
    user: headlessUserSide({}),
    onEvent: (event) => {
      recordAgentEvent(log, event);
      const record = eventRecord(event);
      if (record) sink.write(`${JSON.stringify(record)}\n`);
      if (event.type === 'text_delta' && first === 0) first = performance.now();
      if (first > 0) events++;
    },
  });
  await agent.send('write a long answer');
  const ms = performance.now() - first;
  log.close();
  await runtime.dispose();
  // The result line the runner printed last.
  return { ms, events: events + 1 };
}

/** `lathe -p --output-format stream-json` of a built command, timed on its stdout. */
function throughCommand(bin: string, server: TimedServer): Promise<Timing> {
  const { cwd, documentsRoot } = workspace();
  return server.enqueue([answer]).then(
    () =>
      new Promise((done, fail) => {
        const child = spawn(
          process.execPath,
          [bin, '-p', 'write a long answer', '--model', MODEL, '--output-format', 'stream-json'],
          {
            cwd,
            env: latheEnv(server, documentsRoot),
            stdio: ['ignore', 'pipe', 'ignore'],
          },
        );
        let first = 0;
        let events = 0;
        let rest = '';
        child.stdout.on('data', (chunk: Buffer) => {
          const lines = (rest + chunk.toString('utf8')).split('\n');
          rest = lines.pop() ?? '';
          for (const line of lines) {
            if (first === 0 && line.startsWith('{"type":"text_delta"')) first = performance.now();
            if (first > 0) events++;
          }
        });
        child.on('error', fail);
        child.on('close', () => done({ ms: performance.now() - first, events }));
      }),
  );
}

function row(name: string, timings: Timing[]) {
  const ms = median(timings.map((t) => t.ms));
  const events = median(timings.map((t) => t.events));
  return {
    case: name,
    events,
    'median ms': ms,
    'events/s': Math.round((events / ms) * 1000),
    runs: timings.length,
  };
}

export async function benchSdk(): Promise<Array<Record<string, string | number>>> {
  const server = await startServer();
  try {
    const viaQuery: Timing[] = [];
    const viaAgent: Timing[] = [];
    await throughQuery(server); // warm-up: modules, providers
    await throughAgentEvents(server);
    for (let i = 0; i < RUNS; i++) {
      viaAgent.push(await throughAgentEvents(server));
      viaQuery.push(await throughQuery(server));
    }
    const rows: Array<Record<string, string | number>> = [
      row('agent events to JSON lines (the runner before)', viaAgent),
      row('query() messages to JSON lines', viaQuery),
    ];
    const added = median(viaQuery.map((q, i) => (q.ms - viaAgent[i].ms) / q.events)) * 1000;
    rows.push({
      case: 'query(): added µs per event (median of run pairs)',
      events: '',
      'median ms': '',
      'events/s': added.toFixed(2),
      runs: RUNS,
    });
    const baseline = process.env.LATHE_BENCH_BASELINE;
    if (baseline) {
      const now: Timing[] = [];
      const before: Timing[] = [];
      for (let i = 0; i < RUNS; i++) {
        before.push(await throughCommand(baseline, server));
        now.push(await throughCommand(BIN, server));
      }
      rows.push(
        row('lathe -p stream-json, baseline build', before),
        row('lathe -p stream-json, this build', now),
      );
    }
    return rows;
  } finally {
    server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { printTable } = await import('./stats.js');
  printTable('SDK: a 10,000-token streamed answer', await benchSdk());
}
