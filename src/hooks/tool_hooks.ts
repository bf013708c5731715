import type { SubagentTag } from '../tool/context/agents.js';
import type { CallHooks } from '../tool/run_call.js';
import type { HookSet } from './hook_set.js';
import { matchNames } from './tool_names.js';

/** The fields that say whose call it is: a child's id and type, absent for the user's agent. */
export function agentFields(agent?: SubagentTag): Record<string, unknown> {
  return agent ? { agent_id: agent.id, agent_type: agent.type, agent_name: agent.name } : {};
}

/**
 * The call pipeline's hooks for one agent's calls (the user's, or a child's: `agent`):
 * PreToolUse, PermissionRequest (and Notification when a person is asked next), PostToolUse
 * and PostToolUseFailure, matched against the tool's names.
 */
export function toolHooks(hooks: HookSet, agent?: SubagentTag, cwd?: () => string): CallHooks {
  const who = agentFields(agent);
  const about = (name: string) => (agent ? `${name} of ${agent.name}` : name);
  const here = () => (cwd ? { cwd: cwd() } : {});
  return {
    async before(call, tool, input) {
      if (!hooks.has('PreToolUse')) return undefined;
      const verdict = await hooks.run({
        event: 'PreToolUse',
        names: matchNames(tool, input),
        fields: { tool_name: tool.name, tool_input: input, tool_use_id: call.id, ...who },
        about: about(tool.name),
        ...here(),
      });
      return verdict;
    },
    async permission(request, userAsked) {
      const { tool, input, call } = request;
      if (userAsked && hooks.has('Notification'))
        void hooks.run({
          event: 'Notification',
          names: ['permission_prompt'],
          fields: {
            message: `lathe needs your permission to use ${tool.name}`,
            notification_type: 'permission_prompt',
            ...who,
          },
          ...here(),
        });
      if (!hooks.has('PermissionRequest')) return undefined;
      const verdict = await hooks.run({
        event: 'PermissionRequest',
        names: matchNames(tool, input),
        fields: {
          tool_name: tool.name,
          tool_input: input,
          tool_use_id: call.id,
          reason: request.reason,
          ...who,
        },
        about: about(tool.name),
        ...here(),
      });
      if (verdict.block) return { behavior: 'deny', reason: verdict.block };
      if (verdict.decision === 'allow') return { behavior: 'allow' };
      return undefined;
    },
    async after(call, tool, input, result) {
      const event = result.isError ? 'PostToolUseFailure' : 'PostToolUse';
      if (!hooks.has(event)) return undefined;
      const outcome = result.isError ? { error: result.text } : { tool_response: result.text };
      const verdict = await hooks.run({
        event,
        names: matchNames(tool, input),
        fields: { tool_name: tool.name, tool_input: input, tool_use_id: call.id, ...outcome, ...who },
        about: about(tool.name),
        ...here(),
      });
      return { feedback: verdict.block, additionalContext: verdict.additionalContext, stop: verdict.stop };
    },
  };
}
