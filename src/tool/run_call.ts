import type { z } from 'zod';
import type { ApprovalCategory } from '../config/types.js';
import type { PermissionDecision, StickyAsk } from '../permission/types.js';
import { budgetResult } from './budget.js';
import type { SubagentTag } from './context/agents.js';
import { withEditDiagnostics } from './edit_diagnostics.js';
import { type CallFacts, NO_FACTS } from './facts.js';
import { findTool } from './pool.js';
import type { PermissionCheck, Tool, ToolContext, ToolResult } from './types.js';

/** One tool call as the model made it; `input` may still be the raw JSON text. */
export interface ToolCall {
  id: string;
  name: string;
  input: unknown;
}

export interface ApprovalRequest {
  call: ToolCall;
  tool: Tool;
  input: unknown;
  /** What the parse step found (the parsed shell command), for the contract methods. */
  facts: CallFacts;
  reason: string;
  category?: ApprovalCategory;
  /** Set when the ask is one no rule can silence (protected path, Plan mode, no sandbox). */
  sticky?: StickyAsk;
  /** The child agent whose call this is; absent for the user's own agent. */
  agent?: SubagentTag;
}

export interface ApprovalAnswer {
  approved: boolean;
  /** Why the user said no, passed on to the model. */
  feedback?: string;
  /** The user stopped the run at this question (Esc) rather than answering it. */
  interrupted?: boolean;
}

export interface CallHooks {
  /** Runs after validation, before permissions; a string blocks the call with that message. */
  before?(call: ToolCall, tool: Tool, input: unknown): Promise<string | undefined> | string | undefined;
  after?(call: ToolCall, tool: Tool, result: ToolResult): Promise<void> | void;
}

export interface CallEnvironment {
  pool: readonly Tool[];
  context: Omit<ToolContext, 'signal'>;
  /** Asks the user; absent in headless runs, where an ask becomes a denial. */
  askUser?: (request: ApprovalRequest) => Promise<ApprovalAnswer>;
  hooks?: CallHooks;
}

const error = (text: string): ToolResult => ({ isError: true, text });

/** Parses and validates a call's input, or says what is wrong in words the model can act on. */
export function parseInput(
  tool: Tool,
  raw: unknown,
): { ok: true; input: unknown } | { ok: false; message: string } {
  let value = raw ?? {};
  if (typeof raw === 'string') {
    try {
      value = raw.trim() === '' ? {} : JSON.parse(raw);
    } catch (e) {
      return {
        ok: false,
        message: `The arguments of ${tool.name} are not valid JSON (${(e as Error).message}).`,
      };
    }
  }
  const parsed = (tool.inputSchema as z.ZodType).safeParse(value);
  if (parsed.success) return { ok: true, input: parsed.data };
  const problems = parsed.error.issues.map((issue) => {
    const where = issue.path.length > 0 ? issue.path.join('.') : 'input';
    return `- ${where}: ${issue.message}`;
  });
  return { ok: false, message: `Invalid arguments for ${tool.name}:\n${problems.join('\n')}` };
}

/** A call through the parse step: its input and the facts the contract methods answer from. */
export type ParsedCall = { ok: true; input: unknown; facts: CallFacts } | { ok: false; message: string };

/**
 * The parse step: the input against the schema, then what the tool learns from it (a shell
 * command parsed and classified). Facts a tool cannot establish are facts too ("not parsed").
 */
export async function parseCall(tool: Tool, raw: unknown): Promise<ParsedCall> {
  const parsed = parseInput(tool, raw);
  if (!parsed.ok) return parsed;
  return withFacts(tool, parsed.input);
}

/** The facts of valid input; a tool whose fact-finding throws gets an error the model can read. */
export async function withFacts(tool: Tool, input: unknown): Promise<ParsedCall> {
  if (!tool.parseFacts) return { ok: true, input, facts: NO_FACTS };
  try {
    return { ok: true, input, facts: await tool.parseFacts(input) };
  } catch (e) {
    return {
      ok: false,
      message: `The input of ${tool.name} could not be read: ${(e as Error)?.message ?? e}`,
    };
  }
}

function strictest(a: PermissionDecision, b: PermissionDecision): PermissionDecision {
  const rank = { allow: 0, ask: 1, deny: 2 } as const;
  return rank[b.behavior] > rank[a.behavior] ? b : a;
}

/** Asks outside the workspace: there, nothing about a path is told before the call is approved. */
const OUTSIDE_CATEGORIES: ReadonlySet<ApprovalCategory> = new Set(['readOutside', 'editOutside']);

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
function refusedByPermissions(decision: Exclude<PermissionDecision, { behavior: 'allow' }>): ToolResult {
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
async function decidePermission(
  tool: Tool,
  input: unknown,
  facts: CallFacts,
  ctx: ToolContext,
): Promise<PermissionCheck> {
  const subject = tool.permissionSubject(input, ctx, facts);
  const readOnly = tool.isReadOnly(input, facts);
  const own = await tool.checkPermissions(input, ctx);
  const decision = strictest(
    own,
    ctx.permissions.decide({
      tool: tool.name,
      readOnly,
      subject,
      strictPlanRefused: tool.refusedInStrictPlan && !readOnly,
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
async function refusal(
  decision: PermissionDecision,
  request: Omit<ApprovalRequest, 'reason' | 'category' | 'sticky'>,
  env: CallEnvironment,
): Promise<ToolResult | undefined> {
  if (decision.behavior === 'allow') return undefined;
  if (decision.behavior === 'deny') return refusedByPermissions(decision);
  if (!env.askUser) return refusedByPermissions(decision);
  const { reason, category, sticky } = decision;
  const answer = await env.askUser({ ...request, reason, category, ...(sticky ? { sticky } : {}) });
  if (answer.approved) return undefined;
  if (answer.interrupted)
    return error(
      `Interrupted by the user: ${request.tool.name} was not run. Do not run it again unless the user asks.`,
    );
  const why = answer.feedback ? ` The user said: ${answer.feedback}` : '';
  return error(`The user declined ${request.tool.name}.${why}`);
}

/**
 * The pipeline of one call, each phase in order: find the tool → parse and validate
 * input → tool-specific validation → hooks (before) → permission decision → call → result
 * budgeting → hooks (after). Every failure becomes an error result; nothing here throws.
 */
export async function runToolCall(
  call: ToolCall,
  env: CallEnvironment,
  signal: AbortSignal,
  /** The tool and parsed call, when the caller (the executor, to schedule the call) has them already. */
  found?: { tool: Tool; parsed: ParsedCall },
): Promise<ToolResult> {
  // 1. Find the tool, by name or alias.
  const tool = found?.tool ?? findTool(env.pool, call.name);
  if (!tool) {
    const names = env.pool.map((t) => t.name).join(', ');
    return error(`Unknown tool "${call.name}". Available tools: ${names}.`);
  }
  const ctx: ToolContext = { ...env.context, signal };
  try {
    // 2. Parse: the input against the schema, and the facts the contract methods answer from.
    const parsed = found?.parsed ?? (await parseCall(tool, call.input));
    if (!parsed.ok) return error(parsed.message);
    const { input, facts } = parsed;

    // 3. The tool's own checks. What they find (a path that does not exist) must not answer
    // before permission does: a denied call, or one outside the workspace that was not approved,
    // gets its refusal, the same whether the path exists or not.
    const invalid = await tool.validateInput(input, ctx);
    if (invalid) {
      // A tool's own permission check may need valid input (an MCP tool that exists): then the
      // validation error is all there is to say.
      const decision = await decidePermission(tool, input, facts, ctx).catch(() => undefined);
      if (!decision) return error(invalid);
      const first =
        decision.behavior === 'deny' ||
        (decision.behavior === 'ask' && decision.category && OUTSIDE_CATEGORIES.has(decision.category));
      if (first) {
        const refused = await refusal(decision, { call, tool, input, facts }, env);
        if (refused) return refused;
      }
      return error(invalid);
    }

    // 4. Hooks before the call may block it.
    const blocked = await env.hooks?.before?.(call, tool, input);
    if (blocked) return error(`Blocked by a hook: ${blocked}`);

    // 5. Permission: the tool's own verdict and the engine's; the stricter wins.
    const decision = await decidePermission(tool, input, facts, ctx);
    const refused = await refusal(decision, { call, tool, input, facts }, env);
    if (refused) return refused;
    if (signal.aborted) return error(`Cancelled before ${tool.name} ran.`);

    // 6. The call itself, on what its permission check judged.
    const since = Date.now();
    const output = await tool.call(
      input,
      decision.checkedFiles ? { ...ctx, checkedFiles: decision.checkedFiles } : ctx,
    );
    let result: ToolResult = {
      isError: output.isError ?? false,
      text: output.text,
      ...(output.data !== undefined ? { data: output.data } : {}),
      ...(output.images ? { images: output.images } : {}),
    };

    // 6b. An edit's result ends with the language servers' diagnostics of the files it changed.
    result = await withEditDiagnostics(tool, input, ctx, result, {
      checkedFiles: decision.checkedFiles,
      since,
    });

    // 7. Budget the result.
    result = await budgetResult(result, tool.maxResultChars, ctx.sessionDir, call.id);

    // 8. Hooks after the call.
    await env.hooks?.after?.(call, tool, result);
    return result;
  } catch (e) {
    if (signal.aborted) return error(`${tool.name} was cancelled.`);
    return error(`${tool.name} failed: ${(e as Error)?.message ?? String(e)}`);
  }
}
