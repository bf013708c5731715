import type { AgentHooks } from '../hooks/index.js';
import type { AgentOutcome } from './events.js';

/** How many times Stop hooks may send the agent on within one prompt before it ends anyway. */
export const MAX_STOP_CONTINUATIONS = 5;

/** What the hooks at the start of a prompt said: it is blocked, the run stops, or context joins. */
export interface PromptHookResult {
  blocked?: string;
  stop?: string;
  /** Notes for the model, sent after the prompt. */
  context: string[];
}

/**
 * The hooks a prompt meets before it is sent: SessionStart (SubagentStart for a child) before
 * the agent's first prompt, then UserPromptSubmit.
 */
export async function promptHooks(
  hooks: AgentHooks | undefined,
  prompt: string,
  options: { first: boolean; resumed: boolean; signal?: AbortSignal },
): Promise<PromptHookResult> {
  const result: PromptHookResult = { context: [] };
  if (!hooks) return result;
  if (options.first) {
    const start = await hooks.start(options.resumed ? 'resume' : 'startup');
    if (start.additionalContext) result.context.push(start.additionalContext);
    if (start.stop) return { ...result, stop: start.stop };
  }
  const submitted = await hooks.promptSubmitted(prompt, options.signal);
  if (submitted.stop) return { ...result, stop: submitted.stop };
  if (submitted.block) return { ...result, blocked: submitted.block };
  if (submitted.additionalContext) result.context.push(submitted.additionalContext);
  return result;
}

/** What the Stop hooks said of an outcome: it stands (maybe changed), or the agent goes on. */
export type StopAnswer = { outcome: AgentOutcome; notice?: string } | { goOn: string };

/**
 * The Stop hooks (SubagentStop for a child) at the end of a run: `continue: false` makes it
 * `stopped`; a block sends the agent on with the hook's reason, at most MAX_STOP_CONTINUATIONS
 * times a prompt (`stop_hook_active` tells the hook it sent the agent on before).
 */
export async function stopHooks(
  hooks: AgentHooks | undefined,
  outcome: AgentOutcome,
  continuations: number,
  signal?: AbortSignal,
): Promise<StopAnswer> {
  if (!hooks || outcome.kind === 'stopped') return { outcome };
  const verdict = await hooks.stopping(outcome.text, continuations > 0, signal);
  if (verdict.stop) return { outcome: { ...outcome, kind: 'stopped', text: verdict.stop } };
  if (!verdict.block || signal?.aborted) return { outcome };
  if (continuations >= MAX_STOP_CONTINUATIONS)
    return { outcome, notice: `Stop hooks sent the agent on ${continuations} times; it stops here` };
  return { goOn: verdict.block };
}
