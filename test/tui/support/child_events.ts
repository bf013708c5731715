import { Agent } from '../../../src/agent/agent.js';
import type { AgentEvent, SubagentTag } from '../../../src/agent/events.js';
import { capabilitiesFor } from '../../../src/provider/capabilities.js';
import { createModel } from '../../../src/provider/create_model.js';
import { createRuntime } from '../../../src/runtime/create_runtime.js';
import { FakeModelServer, type ScriptedTurn } from '../../support/fake_model_server.js';
import { tempDir, writeTree } from '../../support/runtime_fixtures.js';

/** Fake model servers started for child runs; close them after each test. */
export const childServers: FakeModelServer[] = [];

const FILES = { 'a.ts': 'export const answer = 42;\n', 'b.ts': 'export const question = "?";\n' };

/** A child finding the answer: reads a file, searches, then completes (1,000 in / 200 out a request). */
export const FINDER: ScriptedTurn[] = [
  {
    text: 'Reading a.ts first.',
    toolCalls: [{ name: 'read_file', input: { path: 'a.ts' } }],
    usage: { inputTokens: 1000, outputTokens: 200 },
  },
  {
    toolCalls: [{ name: 'search_files', input: { regex: 'answer' } }],
    usage: { inputTokens: 1000, outputTokens: 200 },
  },
  {
    toolCalls: [{ name: 'attempt_completion', input: { result: 'answer is defined in a.ts line 1' } }],
    usage: { inputTokens: 1000, outputTokens: 200 },
  },
];

/** The events a real child agent emits, run against the fake model server in a temp workspace. */
export async function childEvents(
  turns: ScriptedTurn[],
  prompt = 'Find where the answer is defined.',
): Promise<AgentEvent[]> {
  const server = await FakeModelServer.start({ turns });
  childServers.push(server);
  const runtime = createRuntime({
    cwd: writeTree(FILES),
    documentsRoot: tempDir('lathe-home-'),
    agentKind: 'subagent',
    env: {},
  });
  const spec = { provider: 'anthropic' as const, modelId: 'claude-haiku-4-5' };
  const events: AgentEvent[] = [];
  const agent = new Agent({
    runtime,
    model: await createModel(spec, { apiKey: 'k', baseUrl: server.baseUrl('anthropic') }),
    modelName: 'anthropic/claude-haiku-4-5',
    capabilities: capabilitiesFor(spec),
    user: { ask: async () => ({ answer: '', present: false }), confirm: async () => ({ approved: false }) },
    onEvent: (event) => events.push(event),
  });
  try {
    await agent.send(prompt);
  } finally {
    await runtime.dispose();
  }
  return events;
}

export const tagged = (child: SubagentTag, events: AgentEvent[]): AgentEvent[] =>
  events.map((event) => ({ type: 'subagent', child, event }));
