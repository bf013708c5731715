// MCP client speed: a trivial tool call through lathe's client against the SDK client alone,
// and the time from start to 5 stdio servers connected (parallel, against one after another).

import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { parseServer } from '../src/mcp/config.js';
import { McpHub } from '../src/mcp/hub.js';
import { createRuntime } from '../src/runtime/create_runtime.js';
import { median, printTable, timeRuns } from './stats.js';

const CALLS = 300;
const SERVERS = 5;
const START_RUNS = 5;
const EVERYTHING = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-everything/dist/index.js',
);

const config = (name: string) => {
  const parsed = parseServer(
    name,
    { command: process.execPath, args: [EVERYTHING, 'stdio'], autoApprove: ['echo'] },
    { source: 'bench', workspace: process.cwd(), env: process.env },
  );
  if (typeof parsed === 'string') throw new Error(parsed);
  return parsed;
};

/** Median ms of a trivial `echo` call: the SDK client alone, lathe's client, and the whole tool pipeline. */
async function roundTrips(): Promise<Record<string, number>> {
  const sdk = new Client({ name: 'bench', version: '1' });
  await sdk.connect(
    new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'ignore' }),
  );
  const hub = new McpHub([config('everything')]);
  await hub.connectAll();
  const workspace = mkdtempSync(join(tmpdir(), 'lathe-bench-mcp-'));
  const runtime = createRuntime({
    cwd: workspace,
    documentsRoot: mkdtempSync(join(tmpdir(), 'lathe-bench-home-')),
  });
  runtime.setExternalTools(hub.tools(), { access: hub });
  runtime.permissions.addRules({ allow: ['everything__echo'] }, 'bench');
  const signal = new AbortController().signal;
  const args = { message: 'ping' };
  try {
    // Interleaved, so drift (a GC, a busy core) hits every variant alike.
    const times = { sdk: [] as number[], lathe: [] as number[], pipeline: [] as number[] };
    for (let i = 0; i < CALLS + 20; i++) {
      const [a] = await timeRuns(1, () => sdk.callTool({ name: 'echo', arguments: args }), 0);
      const [b] = await timeRuns(1, () => hub.callTool('everything', 'echo', args, { signal }), 0);
      const [c] = await timeRuns(1, () => runtime.runTool('everything__echo', args), 0);
      if (i < 20) continue;
      times.sdk.push(a);
      times.lathe.push(b);
      times.pipeline.push(c);
    }
    return { sdk: median(times.sdk), lathe: median(times.lathe), pipeline: median(times.pipeline) };
  } finally {
    await sdk.close();
    await hub.close();
  }
}

/** Median ms from creating the client to every server connected with its tools listed. */
async function startTimes(): Promise<{ single: number; parallel: number; serial: number }> {
  const configs = Array.from({ length: SERVERS }, (_, i) => config(`s${i}`));
  const single: number[] = [];
  const parallel: number[] = [];
  const serial: number[] = [];
  for (let run = 0; run < START_RUNS; run++) {
    let start = performance.now();
    const alone = new McpHub([configs[0]]);
    await alone.connectAll();
    single.push(performance.now() - start);
    await alone.close();

    start = performance.now();
    const hub = new McpHub(configs);
    await hub.connectAll();
    parallel.push(performance.now() - start);
    if (!hub.servers().every((s) => s.state === 'connected')) throw new Error('a server failed to connect');
    await hub.close();

    start = performance.now();
    const one = new McpHub(configs);
    for (const c of configs) await one.connection(c.name)!.connect();
    serial.push(performance.now() - start);
    await one.close();
  }
  return { single: median(single), parallel: median(parallel), serial: median(serial) };
}

export async function benchMcp(): Promise<Array<Record<string, string | number>>> {
  const trips = await roundTrips();
  const start = await startTimes();
  const added = trips.lathe - trips.sdk;
  return [
    { case: 'echo round trip: SDK client alone', 'median ms': trips.sdk, target: '' },
    {
      case: "echo round trip: lathe's client (McpHub.callTool)",
      'median ms': trips.lathe,
      target: `added ${added.toFixed(2)} ms (< 2)`,
    },
    { case: 'echo round trip: runtime.runTool (whole pipeline)', 'median ms': trips.pipeline, target: '' },
    { case: 'start to 1 stdio server connected', 'median ms': start.single, target: '' },
    {
      case: `start to ${SERVERS} stdio servers connected, parallel`,
      'median ms': start.parallel,
      target: `${cpus().length} cores; server start-up is CPU-bound`,
    },
    {
      case: `start to ${SERVERS} stdio servers connected, one after another`,
      'median ms': start.serial,
      target: `parallel ${(start.serial / start.parallel).toFixed(1)}× faster`,
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printTable('MCP client: round trip and start-up (server-everything, stdio)', await benchMcp());
}
