// lathe's own overhead per tool call: a scripted 50-call session against the fake model server,
// in process, so model latency is zero and what is left is the loop, the executor and the tools.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '../src/agent/agent.js';
import { capabilitiesFor } from '../src/provider/capabilities.js';
import { createModel } from '../src/provider/create_model.js';
import { createRuntime } from '../src/runtime/create_runtime.js';
import { FakeModelServer, type ScriptedTurn } from '../test/support/fake_model_server.js';
import { median, printTable } from './stats.js';

const CALLS = 50;
const RUNS = 7;

async function session(server: FakeModelServer, calls: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'lathe-bench-agent-'));
  for (let i = 0; i < 10; i++)
    writeFileSync(join(dir, `f${i}.ts`), `export const v${i} = ${i};\n`.repeat(50));
  const turns: ScriptedTurn[] = [];
  for (let i = 0; i < calls; i++)
    turns.push({ toolCalls: [{ name: 'read_file', input: { path: `f${i % 10}.ts` } }] });
  turns.push({ text: 'Done.' });
  server.enqueue(...turns);
  const spec = { provider: 'anthropic' as const, modelId: 'claude-sonnet-4-5' };
  const runtime = createRuntime({
    cwd: dir,
    documentsRoot: mkdtempSync(join(tmpdir(), 'lathe-bench-home-')),
    env: {},
  });
  const model = await createModel(spec, { apiKey: 'bench', baseUrl: server.baseUrl('anthropic') });
  const agent = new Agent({
    runtime,
    model,
    modelName: 'anthropic/claude-sonnet-4-5',
    capabilities: capabilitiesFor(spec),
    user: { ask: async () => ({ answer: '', present: false }), confirm: async () => ({ approved: false }) },
  });
  const start = performance.now();
  const outcome = await agent.send('read the files');
  if (outcome.kind !== 'final_text') throw new Error(`session ended ${outcome.kind}: ${outcome.text}`);
  return performance.now() - start;
}

export async function benchAgent(): Promise<Array<Record<string, string | number>>> {
  const server = await FakeModelServer.start();
  try {
    await session(server, 5); // warm-up: module loading, grammar, first connections
    const empty: number[] = [];
    const full: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      empty.push(await session(server, 0));
      full.push(await session(server, CALLS));
    }
    const base = median(empty);
    const total = median(full);
    const perCall = (total - base) / CALLS;
    return [
      { case: 'one-reply session (no tool calls)', 'median ms': base, target: '' },
      { case: `${CALLS}-call session`, 'median ms': total, target: '' },
      {
        case: 'per tool call (request + call + result)',
        'median ms': perCall,
        target: perCall < 10 ? 'ok (< 10 ms)' : 'OVER 10 ms',
      },
    ];
  } finally {
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printTable(`agent loop overhead, medians of ${RUNS}`, await benchAgent());
}
