import type { AgentOutcome } from '../agent/events.js';
import { addSpend, type Spend } from '../agent/subagents/children_spend.js';
import type { ApprovalCategory } from '../config/types.js';
import type { Runtime } from '../runtime/create_runtime.js';
import type { DeniedCall } from './denials.js';
import { type JsonRecord, usageRecord } from './records.js';
import { resultSubtype } from './result_subtype.js';

/** How a run ended, for the result record and the exit code. */
export interface RunSummary {
  outcome: AgentOutcome;
  sessionId: string;
  durationMs: number;
}

/** Whether a run's outcome counts as success for the exit code. */
export function exitCodeFor(outcome: Pick<AgentOutcome, 'kind'>): number {
  switch (outcome.kind) {
    case 'completed':
    case 'answered':
    case 'final_text':
      return 0;
    case 'aborted':
      return 130;
    case 'max_turns':
    case 'max_tokens':
    case 'max_cost':
    case 'stopped':
      return 2;
    default:
      return 1;
  }
}

/** What the init record says of a run, gathered once the runtime and the session are ready. */
export interface RunDescription {
  sessionId: string;
  model: string;
  /** The model's context window in tokens, when known. */
  contextWindow?: number;
  runtime: Pick<Runtime, 'cwd' | 'pool' | 'conditions' | 'mcp' | 'commands'>;
  approve?: readonly ApprovalCategory[] | 'all';
  yolo?: boolean;
}

/**
 * How asks are answered with no one present: "yolo" (every ask yes, but protected paths and Plan
 * mode), "approve" (asks of the approved categories yes), "default" (every ask refused).
 */
function permissionMode(run: RunDescription): 'yolo' | 'approve' | 'default' {
  if (run.yolo) return 'yolo';
  if (run.approve === 'all' || (run.approve?.length ?? 0) > 0) return 'approve';
  return 'default';
}

/** The first stream-json line: what the run works with. */
export function initRecord(run: RunDescription): JsonRecord {
  const { runtime } = run;
  return {
    type: 'system',
    subtype: 'init',
    session_id: run.sessionId,
    model: run.model,
    cwd: runtime.cwd,
    profile: runtime.conditions.profile,
    mode: runtime.conditions.mode,
    permission_mode: permissionMode(run),
    approved_categories: run.approve === 'all' ? 'all' : [...(run.approve ?? [])],
    tools: runtime.pool.map((tool) => tool.name),
    mcp_servers: (runtime.mcp?.servers() ?? []).map((server) => ({
      name: server.name,
      status: server.state,
      ...(server.error ? { error: server.error } : {}),
    })),
    // Custom commands, workflows and skills a prompt can start with `/name`.
    slash_commands: runtime.commands.list().map((command) => ({
      name: command.name,
      description: command.description,
      ...(command.argumentHint ? { argument_hint: command.argumentHint } : {}),
    })),
    context_window: run.contextWindow ?? null,
  };
}

/**
 * The result object (`json`) and the last line (`stream-json`). `usage` is the run's own requests,
 * with its children's (at any depth) apart in `usage.children`; `total_cost_usd` is both.
 */
export function resultRecord(
  summary: RunSummary,
  extra: { permissionDenials: readonly DeniedCall[]; jsonSchema: boolean; children: Spend },
): JsonRecord {
  const { outcome } = summary;
  const { children } = extra;
  const total = addSpend({ usage: outcome.usage, costUsd: outcome.costUsd }, children);
  return {
    type: 'result',
    subtype: resultSubtype(outcome.kind),
    outcome: outcome.kind,
    is_error: exitCodeFor(outcome) !== 0,
    result: outcome.text,
    session_id: summary.sessionId,
    num_turns: outcome.turns,
    duration_ms: Math.round(summary.durationMs),
    usage: {
      ...usageRecord(outcome.usage),
      children: { ...usageRecord(children.usage), cost_usd: children.costUsd ?? null },
    },
    total_cost_usd: total.costUsd ?? null,
    permission_denials: extra.permissionDenials,
    // A limit that ended the run: which, how much of it was used, and the most allowed.
    ...(outcome.limit ? { limit: outcome.limit } : {}),
    // With --json-schema the field is always there: the accepted object, or null without one.
    ...(extra.jsonSchema ? { structured_output: outcome.structuredOutput ?? null } : {}),
  };
}
