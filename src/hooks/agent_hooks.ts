import type { SubagentTag } from '../tool/context/agents.js';
import type { HookSet } from './hook_set.js';
import { agentFields } from './tool_hooks.js';
import { emptyVerdict, type HookVerdict } from './verdict.js';

/**
 * The hooks of one agent's own events. The user's agent runs SessionStart, UserPromptSubmit
 * and Stop; a child (`agent` set) runs SubagentStart and SubagentStop in their place (its
 * prompt comes from its parent, not the user). Both run PreCompact.
 */
export class AgentHooks {
  constructor(
    readonly set: HookSet,
    readonly agent?: SubagentTag,
  ) {}

  /** The same hooks for a child. */
  forChild(tag: SubagentTag): AgentHooks {
    return new AgentHooks(this.set, tag);
  }

  /** SessionStart (`startup` or `resume`), or SubagentStart for a child: context for the model. */
  start(source: 'startup' | 'resume'): Promise<HookVerdict> {
    if (this.agent)
      return this.set.run({
        event: 'SubagentStart',
        names: [this.agent.type],
        fields: agentFields(this.agent),
        about: this.agent.name,
      });
    return this.set.run({ event: 'SessionStart', names: [source], fields: { source } });
  }

  /** UserPromptSubmit: may block the prompt, stop the run or add context. A child has none. */
  promptSubmitted(prompt: string, signal?: AbortSignal): Promise<HookVerdict> {
    if (this.agent) return Promise.resolve(emptyVerdict());
    return this.set.run({ event: 'UserPromptSubmit', fields: { prompt }, signal });
  }

  /** Stop (SubagentStop for a child): a block means "go on", its reason the next instruction. */
  stopping(lastText: string, active: boolean, signal?: AbortSignal): Promise<HookVerdict> {
    const fields = { stop_hook_active: active, last_assistant_message: lastText };
    if (this.agent)
      return this.set.run({
        event: 'SubagentStop',
        names: [this.agent.type],
        fields: { ...fields, ...agentFields(this.agent) },
        about: this.agent.name,
        signal,
      });
    return this.set.run({ event: 'Stop', fields, signal });
  }

  /** PreCompact, before the conversation is summarised (`auto`: the context is full). */
  compacting(trigger: 'auto' | 'manual'): Promise<HookVerdict> {
    return this.set.run({
      event: 'PreCompact',
      names: [trigger],
      fields: { trigger, ...agentFields(this.agent) },
    });
  }

  /** SessionEnd, when the session's runtime is disposed. */
  ended(reason: string): Promise<HookVerdict> {
    if (this.agent) return Promise.resolve(emptyVerdict());
    return this.set.run({ event: 'SessionEnd', names: [reason], fields: { reason } });
  }
}
