import type { HookCommand, HookEventName } from '../config/hooks/types.js';
import type { HookExit } from './run_hook.js';

/** What the hooks of one event decided, all of them together. */
export interface HookVerdict {
  /** The action is blocked (a call not run, a prompt not sent; for Stop: the agent goes on), and why. */
  block?: string;
  /** PreToolUse / PermissionRequest: allow without asking, or ask even where rules allow. */
  decision?: 'allow' | 'ask';
  /** PreToolUse / PermissionRequest: the input the call runs with instead. */
  updatedInput?: Record<string, unknown>;
  /** Context for the model. */
  additionalContext?: string;
  /** `continue: false`: the run stops, with this reason. */
  stop?: string;
  /** Lines for the user: failing hooks, and what hooks say to the user (`systemMessage`). */
  warnings: string[];
}

export const emptyVerdict = (): HookVerdict => ({ warnings: [] });

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const firstLine = (text: string) => {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 197)}…` : line;
};

/** Events whose plain (non-JSON) output is context for the model, as Claude Code has it. */
const TEXT_IS_CONTEXT: ReadonlySet<HookEventName> = new Set(['UserPromptSubmit', 'SessionStart']);

/**
 * One hook's exit, read: exit 0 with JSON decides; exit 2 always blocks, with stderr as the
 * reason; anything else is a warning that blocks only with `failClosed`.
 */
export function readHookExit(
  exit: HookExit,
  hook: HookCommand,
  event: HookEventName,
  label: string,
): HookVerdict {
  const verdict = emptyVerdict();
  const name = `hook \`${hook.command}\` (${label})`;
  const failed = (what: string) => {
    verdict.warnings.push(
      `${name} ${what}; ${hook.failClosed ? 'blocked, as the hook is failClosed' : 'going on without it'}`,
    );
    if (hook.failClosed) verdict.block = `${name} ${what}`;
    return verdict;
  };
  switch (exit.kind) {
    case 'aborted':
      return verdict;
    case 'not_started':
      return failed(`could not start: ${exit.message}`);
    case 'timed_out':
      // A function has no process to kill: it is left behind, its signal aborted.
      return failed(`timed out after ${exit.seconds} s${hook.run ? '' : '; its process group was killed'}`);
    case 'flooded':
      return failed('printed more than 64 KB; it was stopped');
    case 'crashed':
      return failed(`crashed (${exit.signal})${exit.stderr.trim() ? `: ${firstLine(exit.stderr)}` : ''}`);
  }
  if (exit.code === 2) {
    verdict.block = exit.stderr.trim() || `${name} exited with code 2`;
    return verdict;
  }
  if (exit.code !== 0) {
    const problem = exit.stderr.trim() ? `: ${firstLine(exit.stderr)}` : '';
    const missing = exit.code === 127 ? ' (command not found)' : '';
    return failed(`exited with code ${exit.code}${missing}${problem}`);
  }
  const out = exit.stdout.trim();
  if (out === '') return verdict;
  let json: unknown;
  try {
    json = JSON.parse(out);
  } catch (error) {
    if (/^[{[]/.test(out)) return failed(`printed invalid JSON (${(error as Error).message})`);
    if (TEXT_IS_CONTEXT.has(event)) verdict.additionalContext = out;
    return verdict;
  }
  if (!isObject(json)) return failed('printed JSON that is not an object');
  const problem = readJsonOutput(json, verdict, name);
  return problem ? failed(problem) : verdict;
}

/** The fields of a hook's JSON answer (Claude Code's shape); a problem when one is of the wrong kind. */
function readJsonOutput(
  json: Record<string, unknown>,
  verdict: HookVerdict,
  name: string,
): string | undefined {
  const specific = isObject(json.hookSpecificOutput) ? json.hookSpecificOutput : {};
  // PermissionRequest answers with `decision: {behavior, message, updatedInput}`.
  const permission = isObject(specific.decision) ? specific.decision : undefined;
  const decision =
    specific.permissionDecision ??
    json.permissionDecision ??
    permission?.behavior ??
    (typeof json.decision === 'string' ? json.decision : undefined);
  const reason =
    specific.permissionDecisionReason ?? json.permissionDecisionReason ?? permission?.message ?? json.reason;
  if (reason !== undefined && typeof reason !== 'string') return 'gave a reason that is not a string';
  if (decision !== undefined) {
    if (decision === 'deny' || decision === 'block') verdict.block = reason || `${name} denied it`;
    else if (decision === 'allow' || decision === 'approve') verdict.decision = 'allow';
    else if (decision === 'ask') verdict.decision = 'ask';
    else return `gave the decision ${JSON.stringify(decision)} (use allow, deny, ask or block)`;
  }
  const updated = specific.updatedInput ?? json.updatedInput ?? permission?.updatedInput;
  if (updated !== undefined) {
    if (!isObject(updated)) return 'gave an updatedInput that is not an object';
    verdict.updatedInput = updated;
  }
  const context = specific.additionalContext ?? json.additionalContext;
  if (context !== undefined) {
    if (typeof context !== 'string') return 'gave an additionalContext that is not a string';
    verdict.additionalContext = context;
  }
  if (json.continue === false) {
    const why = typeof json.stopReason === 'string' && json.stopReason ? json.stopReason : undefined;
    verdict.stop = why ?? `${name} stopped the run`;
  }
  if (typeof json.systemMessage === 'string' && json.systemMessage.trim())
    verdict.warnings.push(`${name}: ${json.systemMessage.trim()}`);
  return undefined;
}

/** The verdicts of an event's hooks, together: a block or a stop wins, ask beats allow, contexts add up. */
export function mergeVerdicts(verdicts: readonly HookVerdict[]): HookVerdict {
  const merged = emptyVerdict();
  const blocks: string[] = [];
  const contexts: string[] = [];
  for (const v of verdicts) {
    if (v.block) blocks.push(v.block);
    if (v.decision === 'ask' || (v.decision === 'allow' && merged.decision === undefined))
      merged.decision = v.decision;
    if (v.updatedInput) merged.updatedInput = v.updatedInput;
    if (v.additionalContext) contexts.push(v.additionalContext);
    merged.stop ??= v.stop;
    merged.warnings.push(...v.warnings);
  }
  if (blocks.length > 0) merged.block = blocks.join('\n');
  if (contexts.length > 0) merged.additionalContext = contexts.join('\n');
  return merged;
}
