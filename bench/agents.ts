// Subagents: what starting a child costs lathe (no model time, no extra OS process), how 4
// children in parallel compare with the slowest of them alone, and how big a non-fork child's
// first request is. The fake model server runs in this process; it answers at once, or after
// the scripted chunk delays that stand in for model time.
import childProcess from 'node:child_process';
import { subscribe } from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { RecordedRequest, WireJson } from '../test/support/fake_model/types.js';
import type { ScriptedTurn } from '../test/support/fake_model_server.js';
import { tempDir } from '../test/support/runtime_fixtures.js';
import { call, type Reply, say, startParent } from '../test/support/subagent_harness.js';
import { median, printTable } from './stats.js';

const RUNS = 15;
const PARALLEL_RUNS = 5;
type Rows = Array<Record<string, string | number>>;

const SPAWNERS = ['spawn', 'execFile', 'exec', 'fork', 'spawnSync', 'execFileSync', 'execSync'] as const;

/** Counts the OS processes this process starts, until the returned function is called. */
function countSpawns(): { count: () => number; stop: () => void } {
  let spawned = 0;
  const module = childProcess as unknown as Record<string, (...args: unknown[]) => unknown>;
  const saved = SPAWNERS.map((name) => module[name]);
  for (const [i, name] of SPAWNERS.entries()) {
    module[name] = (...args: unknown[]) => {
      spawned++;
      return saved[i](...args);
    };
  }
  syncBuiltinESMExports();
  return {
    count: () => spawned,
    stop: () => {
      for (const [i, name] of SPAWNERS.entries()) module[name] = saved[i];
      syncBuiltinESMExports();
    },
  };
}

/**
 * When lathe last handed a model request to the network, watched on the diagnostics channels of
 * fetch (undici, the model's client) and of node:http (a proxy or tool request), since lathe
 * keeps its own reference to fetch and a patched global would not see it.
 */
let lastFetch = { at: 0, cpuMs: 0 };
const cpuMs = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};
const requestStarted = () => {
  lastFetch = { at: performance.now(), cpuMs: cpuMs() };
};
subscribe('undici:request:create', requestStarted);
subscribe('http.client.request.start', requestStarted);

/** The workspace of the runs: one small file the children read. */
const workspace = tempDir('lathe-bench-agents-');
writeFileSync(join(workspace, 'notes.txt'), 'a note\n'.repeat(20));

/**
 * A parent whose first turn calls `tool` with `input`, timed from the call's start: to its
 * result, to the first child's request leaving lathe (fetch) and arriving at the server.
 */
async function timedCall(tool: string, input: unknown, child: Reply) {
  let started = 0;
  let startedCpu = 0;
  let ended = 0;
  let childSent = { at: 0, cpuMs: 0 };
  let childArrived = 0;
  let spawnsAtStart = 0;
  let spawnsAtChild = 0;
  const spawns = countSpawns();
  const parent = await startParent({
    env: {},
    cwd: workspace,
    reply: (sender, i, req) =>
      sender === 'parent' ? (i === 0 ? call(tool, input) : say('ok')) : child(sender, i, req),
    onEvent: (event) => {
      if (event.type === 'tool_start' && event.name === tool) {
        started = performance.now();
        startedCpu = cpuMs();
        spawnsAtStart = spawns.count();
      }
      if (event.type === 'tool_result' && event.name === tool) ended = performance.now();
    },
    onTraffic: ({ phase }) => {
      if (phase !== 'request' || !started || childArrived) return;
      childArrived = performance.now();
      childSent = lastFetch;
      spawnsAtChild = spawns.count();
    },
  });
  try {
    await parent.agent.send('do the task');
  } finally {
    spawns.stop();
    await parent.close();
  }
  // A request seen before the call started is no child's: a figure from it would be negative.
  if (childSent.at < started) throw new Error(`no child request left lathe after the ${tool} call started`);
  return {
    startMs: childSent.at - started,
    startCpuMs: childSent.cpuMs - startedCpu,
    arriveMs: childArrived - started,
    callMs: ended - started,
    spawnedWhileStarting: spawnsAtChild - spawnsAtStart,
    requests: parent.modelRequests(),
  };
}

/** Tokens of a request as sent: the system text, each tool definition, the messages. */
function requestTokens(req: RecordedRequest): { system: number; tools: number; total: number } {
  const system = countTokens(req.systemText ?? '');
  const tools = ((req.body.tools ?? []) as WireJson[]).reduce(
    (sum, t) => sum + countTokens(JSON.stringify(t)),
    0,
  );
  const messages = countTokens(JSON.stringify(req.body.messages ?? []));
  return { system, tools, total: system + tools + messages };
}

/** Child k makes k + 1 tool calls, then answers; each reply streams with delays (the model's time). */
const working: Reply = (sender, i) => {
  const calls = Number(/child (\d)/.exec(sender)?.[1] ?? 0) + 1;
  const turn: ScriptedTurn =
    i < calls ? call('read_file', { path: 'notes.txt', offset: i + 1 }) : say(`${sender} done`);
  return { ...turn, chunkDelayMs: 15 } as ScriptedTurn;
};

export async function benchAgents(): Promise<Rows> {
  await timedCall('use_subagent', { description: 'warm', prompt: 'warm up' }, () => say('hi'));
  const starts: number[] = [];
  const arrivals: number[] = [];
  const cpu: number[] = [];
  let spawned = 0;
  let first: RecordedRequest[] = [];
  for (let run = 0; run < RUNS; run++) {
    const timed = await timedCall('use_subagent', { description: 'probe', prompt: 'say hi' }, () =>
      say('hi'),
    );
    starts.push(timed.startMs);
    arrivals.push(timed.arriveMs);
    cpu.push(timed.startCpuMs);
    spawned = Math.max(spawned, timed.spawnedWhileStarting);
    first = timed.requests;
  }
  const tasks = [0, 1, 2, 3].map((k) => ({ description: `child ${k}`, prompt: `child ${k}` }));
  const alone: number[] = [];
  const together: number[] = [];
  for (let run = 0; run < PARALLEL_RUNS; run++) {
    const each = [];
    for (const task of tasks) each.push((await timedCall('use_subagent', task, working)).callMs);
    alone.push(Math.max(...each));
    together.push((await timedCall('use_subagents', { tasks }, working)).callMs);
  }
  const ratio = median(together) / median(alone);
  const [parentRequest, childRequest] = first;
  const parentTokens = requestTokens(parentRequest);
  const childTokens = requestTokens(childRequest);
  return [
    {
      case: 'start a child: call to its first request leaving lathe',
      'median ms': median(starts),
      figure: `${spawned} processes started`,
      target: median(starts) < 20 && spawned === 0 ? 'ok (< 20 ms, none)' : 'OVER (20 ms, no process)',
    },
    {
      case: '  … of it, CPU time of this process',
      'median ms': median(cpu),
      figure: `load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores`,
      target: '',
    },
    {
      case: '  … and arriving at the fake server (this process)',
      'median ms': median(arrivals),
      figure: '',
      target: '',
    },
    { case: 'slowest of 4 children alone', 'median ms': median(alone), figure: '', target: '' },
    {
      case: '4 children in parallel',
      'median ms': median(together),
      figure: `${ratio.toFixed(2)}× the slowest alone`,
      target: ratio < 1.3 ? 'ok (< 1.3×)' : 'OVER 1.3×',
    },
    {
      case: "user's agent: first request (standard)",
      'median ms': '',
      figure: `${parentTokens.total} tokens (system ${parentTokens.system}, tools ${parentTokens.tools})`,
      target: '',
    },
    {
      case: 'non-fork child: first request (standard)',
      'median ms': '',
      figure: `${childTokens.total} tokens (system ${childTokens.system}, tools ${childTokens.tools})`,
      target: childTokens.total < 4_000 ? 'ok (< 4,000)' : 'OVER 4,000',
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printTable(`subagents, medians of ${RUNS} (parallel: ${PARALLEL_RUNS})`, await benchAgents());
}
