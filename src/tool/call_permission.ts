import type { ApprovalCategory } from '../config/types.js';
import type { PermissionDecision } from '../permission/types.js';
import type { CallFacts } from './facts.js';
import type { ApprovalRequest, ApprovalVerdict, CallEnvironment } from './run_call.js';
import type { PermissionCheck, Tool, ToolContext, ToolResult } from './types.js';

/** The permission phase of a call: the decision, and carrying it out (asking, refusing). */

export const error = (text: string): ToolResult => ({ isError: true, text });

/** An ask answered yes with an input of the answerer's own. */
export interface ChangedInput {
  changedInput: Record<string, unknown>;
}

function strictest(a: PermissionDecision, b: PermissionDecision): PermissionDecision {
  const rank = { allow: 0, ask: 1, deny: 2 } as const;
  return rank[b.behavior] > rank[a.behavior] ? b : a;
}

/** Asks outside the workspace: there, nothing about a path is told before the call is approved. */
export const OUTSIDE_CATEGORIES: ReadonlySet<ApprovalCategory> = new Set(['readOutside', 'editOutside']);

/** What would let an ask run with no one present, when a flag or a rule can. */
function approvalRemedy(decision: Extract<PermissionDecision, { behavior: 'ask' }>): string | undefined {
  return (
    decision.hint ??
    (decision.category
      ? `rerun with --approve ${decision.category} or --yolo, or add an allow rule`
      : undefined)
  );
}

function headlessDenial(decision: Extract<PermissionDecision, { behavior: 'ask' }>): string {
  const how = approvalRemedy(decision) ?? 'it cannot be approved without a user';
  return `Not run: ${decision.reason}, and no one is present to approve it (${how}). Do not retry the same call; choose another way or report the limitation.`;
}

/** A call permissions refused: the model reads the text, clients the structured denial. */
export function refusedByPermissions(
  decision: Exclude<PermissionDecision, { behavior: 'allow' }>,
): ToolResult {
  if (decision.behavior === 'deny') {
    return { ...error(`Not run: ${decision.reason}.`), permissionDenial: { reason: decision.reason } };
  }
  const remedy = approvalRemedy(decision);
  return {
    ...error(headlessDenial(decision)),
    permissionDenial: {
      reason: decision.reason,
      ...(decision.category ? { category: decision.category } : {}),
      ...(remedy ? { remedy } : {}),
    },
  };
}

/** The tool's own verdict and the engine's; the stricter wins. */
export async function decidePermission(
  tool: Tool,
  input: unknown,
  facts: CallFacts,
  ctx: ToolContext,
): Promise<PermissionCheck> {
  const subject = tool.permissionSubject(input, ctx, facts);
  // Plan mode's question is whether the call leaves the workspace alone: lathe's own fact, which
  // is the readOnly flag unless the tool declares otherwise (a tool that changes only lathe's state).
  const leavesWorkspace = tool.planModeAllowed(input, facts);
  const own = await tool.checkPermissions(input, ctx);
  const decision = strictest(
    own,
    ctx.permissions.decide({
      tool: tool.name,
      readOnly: leavesWorkspace,
      subject,
      strictPlanRefused: tool.refusedInStrictPlan && !leavesWorkspace,
    }),
  );
  // Fail closed: a command the sandbox cannot wrap asks, or is refused, whatever rules allow.
  if (subject.kind === 'execute' && ctx.sandboxGate && decision.behavior !== 'deny') {
    const gate = await ctx.sandboxGate();
    if (gate.behavior !== 'allow') return gate;
  }
  return own.checkedFiles ? { ...decision, checkedFiles: own.checkedFiles } : decision;
}

/** Carries out a decision: undefined when the call may run, else the refusal to return. */
export async function refusal(
  decision: PermissionDecision,
  request: Omit<ApprovalRequest, 'reason' | 'category' | 'sticky'>,
  env: CallEnvironment,
): Promise<ToolResult | ChangedInput | undefined> {
  if (decision.behavior === 'allow') return undefined;
  if (decision.behavior === 'deny') return refusedByPermissions(decision);
  const { reason, category, sticky } = decision;
  const asked = { ...request, reason, category, ...(sticky ? { sticky } : {}) };
  const answered = (verdict: ApprovalVerdict) => env.approvals?.answered(asked, verdict);
  env.approvals?.asked(asked);
  const hooked = await env.hooks?.permission?.(asked, env.askUser !== undefined);
  if (hooked?.behavior === 'deny') {
    answered({ answer: 'deny', by: 'hook', ...(hooked.reason ? { reason: hooked.reason } : {}) });
    return error(`Blocked by a PermissionRequest hook: ${hooked.reason ?? 'it denied the call'}`);
  }
  // A hook allows in the user's place, but never what must be asked each time (a protected path).
  if (hooked?.behavior === 'allow' && !sticky) {
    answered({ answer: 'allow', by: 'hook' });
    return undefined;
  }
  if (!env.askUser) {
    answered({ answer: 'deny', by: 'rule', reason: 'no one is present to approve it' });
    return refusedByPermissions(decision);
  }
  const answer = await env.askUser(asked);
  const by = answer.by ?? 'user';
  if (answer.approved) {
    answered({ answer: 'allow', by, ...(answer.updatedInput ? { inputChanged: true } : {}) });
    return answer.updatedInput ? { changedInput: answer.updatedInput } : undefined;
  }
  if (answer.interrupted) {
    answered({ answer: 'interrupted', by });
    return error(
      `Interrupted by the user: ${request.tool.name} was not run. Do not run it again unless the user asks.`,
    );
  }
  answered({ answer: 'deny', by, ...(answer.feedback ? { reason: answer.feedback } : {}) });
  const why = answer.feedback ? ` The user said: ${answer.feedback}` : '';
  return {
    ...error(`The user declined ${request.tool.name}.${why}`),
    permissionDenial: { reason: answer.feedback ? `declined: ${answer.feedback}` : 'declined' },
  };
}
