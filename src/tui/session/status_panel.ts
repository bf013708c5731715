import type { Runtime } from '../../runtime/create_runtime.js';
import type { McpServerSummary } from '../../tool/context/mcp.js';
import type { Line } from '../render/style.js';
import type { StatusInfo } from '../state/store.js';

const GRAY = { color: 'muted' } as const;
const n = (v: number) => v.toLocaleString('en-US');

export const row = (left: string, right: string, width = 22): Line => [
  { text: `  ${left.padEnd(width)} ` },
  { text: right, style: GRAY },
];

const USAGE_LABELS: Record<string, string> = {
  inputTokens: 'input tokens',
  outputTokens: 'output tokens',
  cachedInputTokens: 'cache reads',
  cacheWriteTokens: 'cache writes',
};

export interface StatusFacts {
  runtime: Runtime;
  status: StatusInfo;
  modelName?: string;
  effort?: string;
  /** The session log, once the first prompt has written it. */
  logPath?: string;
}

/** `/status`: what this session runs with, in one panel. */
export async function statusPanel(facts: StatusFacts): Promise<{ title: string; lines: Line[] }> {
  const { runtime, status } = facts;
  const mode = status.mode === 'plan' ? 'Plan' : status.autoEdits ? 'Act, edits approved' : 'Act';
  const lines: Line[] = [
    row(
      'model',
      `${facts.modelName ?? 'none (choose one with /model)'}${facts.effort ? ` · effort ${facts.effort}` : ''}`,
    ),
    row('mode', mode),
    row('profile', runtime.conditions.profile),
    row('workspace', runtime.workspace),
  ];
  const worktree = runtime.place.worktree;
  if (worktree) lines.push(row('worktree', `${worktree.dir} (branch ${worktree.branch})`));
  const cwd = runtime.place.cwd;
  if (cwd !== runtime.place.workspace) lines.push(row('working folder', cwd));
  lines.push(
    row('session', `${runtime.sessionId}${facts.logPath ? '' : ' (logged from the first prompt)'}`),
    row('sandbox', await sandboxText(runtime)),
    row('MCP servers', mcpText(runtime.mcp?.servers())),
    ...usageRows(status),
  );
  return { title: 'Status', lines };
}

/** Tokens, context and cost, as `/cost` and `/status` show them. */
export function usageRows(status: StatusInfo): Line[] {
  const { usage, costUsd, contextTokens, contextWindow } = status;
  // Every counter the usage holds, in its order.
  const counters = Object.entries(usage as unknown as Record<string, number>);
  return [
    ...counters.map(([key, value]) => row(USAGE_LABELS[key] ?? key, n(value))),
    row('context now', contextWindow ? `${n(contextTokens)} of ${n(contextWindow)}` : n(contextTokens)),
    row('cost', costUsd === undefined ? 'unknown for this model' : `$${costUsd.toFixed(4)}`),
  ];
}

async function sandboxText(runtime: Runtime): Promise<string> {
  const { mode, network } = runtime.settings.sandbox;
  if (mode === 'off') return 'off (sandbox.mode is off)';
  try {
    const state = await runtime.checkSandbox();
    if (!state.active) return `not active: ${state.reason}`;
  } catch (error) {
    return `not active: ${(error as Error).message}`;
  }
  return `on (${mode}, network ${network ? 'on' : 'off'})`;
}

function mcpText(servers: readonly McpServerSummary[] | undefined): string {
  if (!servers || servers.length === 0) return 'none';
  const counts = new Map<string, number>();
  for (const server of servers) counts.set(server.state, (counts.get(server.state) ?? 0) + 1);
  return `${[...counts].map(([state, count]) => `${count} ${state}`).join(', ')} (/mcp for each)`;
}
