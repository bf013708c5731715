import { Agent, type AgentOptions } from '../../src/agent/agent.js';
import type { AgentEvent } from '../../src/agent/events.js';
import { modelSourceBeside } from '../../src/agent/subagents/child_model.js';
import type { AgentType } from '../../src/config/agent_types/index.js';
import type { SettingsLayer } from '../../src/config/types.js';
import { capabilitiesFor } from '../../src/provider/capabilities.js';
import { createModel } from '../../src/provider/create_model.js';
import { createRuntime, type Runtime } from '../../src/runtime/create_runtime.js';
import type { SubagentReport } from '../../src/tool/context/agents.js';
import type { ApprovalAnswer, ApprovalRequest } from '../../src/tool/run_call.js';
import type { RecordedRequest, WireJson } from './fake_model/types.js';
import { FakeModelServer, type FakeModelServerOptions, type ScriptedTurn } from './fake_model_server.js';
import { tempDir } from './runtime_fixtures.js';

/** lathe's child prompt opens with this; the user's agent's does not. */
const CHILD_MARK = 'You are a subagent of lathe';

/** The text of a request's first user message (a child's prompt, or the parent's). */
export function firstUserText(req: RecordedRequest): string {
  const first = (req.body?.messages as WireJson[] | undefined)?.find((m) => m.role === 'user');
  const content = first?.content;
  if (typeof content === 'string') return content;
  return (content as WireJson[] | undefined)?.find((part) => part.type === 'text')?.text ?? '';
}

/** Who sent a model request: 'parent', or the child whose prompt it carries. */
export function senderOf(req: RecordedRequest): string {
  return req.systemText?.includes(CHILD_MARK) ? firstUserText(req) : 'parent';
}

/** How the fake model answers: from who asks, and how many requests that agent made before. */
export type Reply = (sender: string, index: number, req: RecordedRequest) => ScriptedTurn;

/**
 * A user's agent in process against a fake Anthropic server whose every answer comes from
 * `reply`, by sender: parallel children and their parent each follow their own script,
 * whatever order their requests arrive in.
 */
/** A fake server whose every answer comes from `reply`, by sender (see `senderOf`). */
export function fakeServerBySender(
  reply: Reply,
  extra: Partial<FakeModelServerOptions> = {},
): Promise<FakeModelServer> {
  const counts = new Map<string, number>();
  return FakeModelServer.start({
    ...extra,
    fallback: {
      respond: (req) => {
        const sender = senderOf(req);
        const index = counts.get(sender) ?? 0;
        counts.set(sender, index + 1);
        return reply(sender, index, req);
      },
    },
  });
}

/** The reports of the first use_subagent / use_subagents call among the events. */
export function subagentReports(events: readonly AgentEvent[]): SubagentReport[] {
  const result = events.find((e) => e.type === 'tool_result' && e.name.startsWith('use_subagent'));
  if (result?.type !== 'tool_result') throw new Error('no subagent result');
  return (result.result.data as { agents: SubagentReport[] }).agents;
}

export async function startParent(options: {
  reply: Reply;
  settings?: SettingsLayer;
  agentTypes?: AgentType[];
  askUser?: (request: ApprovalRequest) => Promise<ApprovalAnswer>;
  cwd?: string;
  home?: string;
  features?: string[];
  /** The runtime's environment; default NODE_ENV=test (which adds the test-only tools). */
  env?: NodeJS.ProcessEnv;
  onTraffic?: FakeModelServerOptions['onTraffic'];
  onEvent?: (event: AgentEvent) => void;
  /** Limits of the user's agent: model requests and spend. */
  limits?: Pick<AgentOptions, 'maxTurns' | 'budget'>;
}) {
  const server = await fakeServerBySender(options.reply, { onTraffic: options.onTraffic });
  const dir = options.cwd ?? tempDir();
  const home = options.home ?? tempDir('lathe-home-');
  const runtime: Runtime = createRuntime({
    cwd: dir,
    documentsRoot: home,
    env: options.env ?? { NODE_ENV: 'test' },
    settings: options.settings,
    features: options.features,
    agentTypes: options.agentTypes,
    askUser: options.askUser,
  });
  const spec = { provider: 'anthropic' as const, modelId: 'claude-sonnet-4-5' };
  const model = await createModel(spec, { apiKey: 'test-key', baseUrl: server.url });
  const events: AgentEvent[] = [];
  const agent = new Agent({
    runtime,
    model,
    modelName: 'anthropic/claude-sonnet-4-5',
    capabilities: capabilitiesFor(spec),
    user: { ask: async () => ({ answer: '', present: false }), confirm: async () => ({ approved: false }) },
    onEvent: (event) => {
      events.push(event);
      options.onEvent?.(event);
    },
    retries: 0,
    ...options.limits,
    // Children on another model (explore's small one) reach the same fake server.
    subagents: {
      models: modelSourceBeside({
        provider: 'anthropic',
        endpoint: { apiKey: 'test-key', baseUrl: server.url },
      }),
    },
  });
  const modelRequests = () => server.requests.filter((r) => r.kind === 'model');
  return {
    server,
    runtime,
    agent,
    events,
    dir,
    home,
    modelRequests,
    /** The requests of one sender, in order. */
    requestsOf: (sender: string) => modelRequests().filter((r) => senderOf(r) === sender),
    /** The events of one child (by description), unwrapped, in order. */
    childEvents: (name: string) =>
      events.flatMap((e) => (e.type === 'subagent' && e.child.name === name ? [e.event] : [])),
    async close() {
      await runtime.dispose();
      await server.close();
    },
  };
}

/** A tool call turn of the fake model. */
export const call = (name: string, input: unknown): ScriptedTurn => ({ toolCalls: [{ name, input }] });
export const say = (text: string): ScriptedTurn => ({ text });
