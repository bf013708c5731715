import type { z } from 'zod';
import { budgetResult } from './budget.js';
import {
  decidePermission,
  error,
  OUTSIDE_CATEGORIES,
  refusal,
  refusedByPermissions,
} from './call_permission.js';
import type { BeforeCallVerdict, CallEnvironment, ToolCall } from './call_types.js';
import { withEditDiagnostics } from './edit_diagnostics.js';
import { type CallFacts, NO_FACTS } from './facts.js';
import { mayChangeFiles, namedFiles } from './may_change_files.js';
import { findTool } from './pool.js';
import type { PermissionCheck, Tool, ToolContext, ToolOutput, ToolResult } from './types.js';

export type {
  AfterCallVerdict,
  ApprovalAnswer,
  ApprovalObserver,
  ApprovalRequest,
  ApprovalVerdict,
  BeforeCallVerdict,
  CallEnvironment,
  CallHooks,
  ToolCall,
} from './call_types.js';

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

/**
 * A deferred tool called by name before tool_search loaded it runs when its input is valid; when
 * it is not, its definition is loaded now, so the model's next request carries its schema.
 */
function loadedOnFailure(tool: Tool, ctx: ToolContext): string {
  if (!ctx.deferredTools?.isHeldBack(tool.name)) return '';
  ctx.deferredTools.load([tool.name]);
  return `\n${tool.name} is a deferred tool whose definition you did not have: it is loaded now, call it again with arguments that match its input schema.`;
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

/**
 * The tool's own checks. What they find (a path that does not exist) must not answer before
 * permission does: a denied call, or one outside the workspace that was not approved, gets its
 * refusal, the same whether the path exists or not.
 */
async function checkInput(
  call: ToolCall,
  tool: Tool,
  input: unknown,
  facts: CallFacts,
  ctx: ToolContext,
  env: CallEnvironment,
): Promise<{ ok: true } | { refused: ToolResult }> {
  const invalid = await tool.validateInput(input, ctx);
  if (!invalid) return { ok: true };
  // A tool's own permission check may need valid input (an MCP tool that exists): then the
  // validation error is all there is to say.
  const decision = await decidePermission(tool, input, facts, ctx).catch(() => undefined);
  if (!decision) return { refused: error(invalid) };
  const first =
    decision.behavior === 'deny' ||
    (decision.behavior === 'ask' && decision.category && OUTSIDE_CATEGORIES.has(decision.category));
  if (first) {
    const refused = await refusal(decision, { call, tool, input, facts }, env);
    if (refused && !('changedInput' in refused)) return { refused };
  }
  return { refused: error(invalid) };
}

/**
 * A PreToolUse hook's say on the permission decision: `ask` makes an allowed call ask (the
 * hook's reason shown); `allow` answers an ask, unless it is sticky (protected paths, no
 * sandbox). A deny stands whatever a hook says.
 */
function hookedDecision(decision: PermissionCheck, before: BeforeCallVerdict | undefined): PermissionCheck {
  if (before?.decision === 'ask' && decision.behavior === 'allow')
    return { ...decision, behavior: 'ask', reason: 'a hook asks for approval' };
  if (before?.decision === 'allow' && decision.behavior === 'ask' && !decision.sticky) {
    const { checkedFiles } = decision;
    return { behavior: 'allow', ...(checkedFiles ? { checkedFiles } : {}) } as PermissionCheck;
  }
  return decision;
}

/**
 * The input an approver gave in place of the model's: parsed and checked as the model's is, then
 * judged by permissions, where only a deny refuses it (the approver has answered the ask).
 */
async function approvedChange(
  tool: Tool,
  changedInput: Record<string, unknown>,
  ctx: ToolContext,
): Promise<{ input: unknown; facts: CallFacts; checkedFiles?: readonly string[] } | { refused: ToolResult }> {
  const parsed = await parseCall(tool, changedInput);
  if (!parsed.ok)
    return {
      refused: error(`Not run: the approval changed the input into one that is not valid. ${parsed.message}`),
    };
  const invalid = await tool.validateInput(parsed.input, ctx);
  if (invalid) return { refused: error(invalid) };
  const decision = await decidePermission(tool, parsed.input, parsed.facts, ctx);
  if (decision.behavior === 'deny') return { refused: refusedByPermissions(decision) };
  return { input: parsed.input, facts: parsed.facts, checkedFiles: decision.checkedFiles };
}

/** The result of what a tool's call returned, with only the fields it set. */
function resultOf(output: ToolOutput): ToolResult {
  return {
    isError: output.isError ?? false,
    text: output.text,
    ...(output.data !== undefined ? { data: output.data } : {}),
    ...(output.images ? { images: output.images } : {}),
    ...(output.savedPath ? { savedPath: output.savedPath } : {}),
  };
}

/** A call's input and facts as the pipeline has them now (a hook or an approver may replace them). */
type CurrentInput = { input: unknown; facts: CallFacts };

/** The context a call runs in: the environment's, with its signal, its id and its own progress line. */
function callContext(call: ToolCall, env: CallEnvironment, signal: AbortSignal): ToolContext {
  let nested = 0;
  return {
    ...env.context,
    signal,
    callId: call.id,
    ...(env.onProgress ? { progress: (message: string) => env.onProgress?.(call, message) } : {}),
    // A call a tool makes (repl's helpers) is judged like the model's own: same pool, hooks, approvals.
    callTool: (name, input) => runToolCall({ id: `${call.id}.${++nested}`, name, input }, env, signal),
  };
}

/**
 * What the PreToolUse hooks' verdict leaves of the call: it stops the run, blocks the call, or
 * replaces the input (checked like the model's).
 */
async function afterHooksBefore(
  call: ToolCall,
  tool: Tool,
  current: CurrentInput,
  before: BeforeCallVerdict | undefined,
  ctx: ToolContext,
  env: CallEnvironment,
): Promise<{ current: CurrentInput } | { refused: ToolResult }> {
  if (before?.stop) {
    ctx.interaction?.finish({ kind: 'stopped', text: before.stop });
    return { refused: error(`Not run: a hook stopped the run: ${before.stop}`) };
  }
  if (before?.block) return { refused: error(`Blocked by a hook: ${before.block}`) };
  if (!before?.updatedInput) return { current };
  const updated = await parseCall(tool, before.updatedInput);
  if (!updated.ok)
    return {
      refused: error(`Not run: a hook changed the input into one that is not valid. ${updated.message}`),
    };
  const rechecked = await checkInput(call, tool, updated.input, updated.facts, ctx, env);
  if ('refused' in rechecked) return rechecked;
  return { current: { input: updated.input, facts: updated.facts } };
}

/**
 * The permission step: the tool's own verdict and the engine's (the stricter wins), then the
 * hook's say; an approval with an input of the approver's own is validated and judged again.
 */
async function permitted(
  call: ToolCall,
  tool: Tool,
  current: CurrentInput,
  before: BeforeCallVerdict | undefined,
  ctx: ToolContext,
  env: CallEnvironment,
): Promise<{ current: CurrentInput; checkedFiles?: readonly string[] } | { refused: ToolResult }> {
  const decision = hookedDecision(await decidePermission(tool, current.input, current.facts, ctx), before);
  const refused = await refusal(decision, { call, tool, ...current }, env);
  if (refused && 'changedInput' in refused) {
    // Approved with an input of the approver's own: validated and judged again; a deny stands.
    const changed = await approvedChange(tool, refused.changedInput, ctx);
    if ('refused' in changed) return changed;
    return { current: changed, checkedFiles: changed.checkedFiles };
  }
  if (refused) return { refused };
  return { current, checkedFiles: decision.checkedFiles };
}

/** The result with the notes for the model after it: a hook's, and what earlier calls started. */
function withNotes(result: ToolResult, notes: (string | undefined)[]): ToolResult {
  const given = notes.filter(Boolean);
  return given.length > 0 ? { ...result, text: `${result.text}\n\n${given.join('\n')}` } : result;
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
    const withdrawn = env.context.mcp?.withdrawnTool?.(call.name);
    if (withdrawn) return error(withdrawn);
    const names = env.pool.map((t) => t.name).join(', ');
    return error(`Unknown tool "${call.name}". Available tools: ${names}.`);
  }
  const ctx = callContext(call, env, signal);
  try {
    // 2. Parse: the input against the schema, and the facts the contract methods answer from.
    const parsed = found?.parsed ?? (await parseCall(tool, call.input));
    if (!parsed.ok) return error(`${parsed.message}${loadedOnFailure(tool, ctx)}`);
    const { input, facts } = parsed;

    // 3. The tool's own checks (again on a hook's updated input, which is checked like the model's).
    const checked = await checkInput(call, tool, input, facts, ctx, env);
    if ('refused' in checked) return checked.refused;

    // 4. Hooks before the call (PreToolUse): block, stop the run, replace the input, allow or ask.
    const before = await env.hooks?.before?.(call, tool, input);
    const hooked = await afterHooksBefore(call, tool, { input, facts }, before, ctx, env);
    if ('refused' in hooked) return hooked.refused;

    // 5. Permission: the tool's own verdict and the engine's; the stricter wins, then the hook's say.
    const allowed = await permitted(call, tool, hooked.current, before, ctx, env);
    if ('refused' in allowed) return allowed.refused;
    const { current, checkedFiles } = allowed;
    if (signal.aborted) return error(`Cancelled before ${tool.name} ran.`);

    // 5b. A checkpoint before a call that may change files, so /undo and /rewind can take it back.
    const unsaved =
      env.checkpoint && mayChangeFiles(tool, current.input, current.facts)
        ? await env.checkpoint(call, tool, current.input, namedFiles(tool, current.input, ctx, checkedFiles))
        : undefined;

    // 6. The call itself, on what its permission check judged.
    const since = Date.now();
    const output = await tool.call(current.input, checkedFiles ? { ...ctx, checkedFiles } : ctx);
    // 6b. An edit's result ends with the language servers' diagnostics of the files it changed.
    const diagnosed = await withEditDiagnostics(tool, input, ctx, resultOf(output), { checkedFiles, since });
    // 7. Budget the result.
    const result = await budgetResult(diagnosed, tool.maxResultChars, ctx.sessionDir, call.id);

    // 8. Hooks after the call (PostToolUse, PostToolUseFailure): feedback and context for the model.
    const after = await env.hooks?.after?.(call, tool, current.input, result);
    if (after?.stop) ctx.interaction?.finish({ kind: 'stopped', text: after.stop });
    return withNotes(result, [
      unsaved,
      before?.additionalContext,
      after?.feedback && `A hook says about this result: ${after.feedback}`,
      after?.additionalContext,
      // 9. What earlier calls started and is in now (an edit's pending diagnostics).
      ctx.interaction?.pendingNotes?.take(),
    ]);
  } catch (e) {
    if (signal.aborted) return error(`${tool.name} was cancelled.`);
    return error(`${tool.name} failed: ${(e as Error)?.message ?? String(e)}`);
  }
}
