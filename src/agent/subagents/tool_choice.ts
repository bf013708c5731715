import type { AgentType } from '../../config/agent_types/index.js';
import { latheFacts } from '../../tool/static_facts.js';
import type { Tool } from '../../tool/types.js';

const names = (list: readonly string[] | undefined, tool: Tool): boolean =>
  list?.some((name) => name === tool.name || tool.aliases.includes(name)) ?? false;

/**
 * Which tools a child of this type keeps, of those a subagent may be offered at all (the
 * declarations already leave out the questions to the user, the plan-mode tools, and below the
 * depth limit the subagent tools): a custom type's `tools` and `disallowedTools`, and for a
 * read-only type — or one in Plan mode, which has no user to approve a change — only the tools
 * Plan mode allows whatever their input (they change nothing of the workspace).
 */
export function toolChoice(type: AgentType): (tool: Tool) => boolean {
  return (tool) => {
    if (type.tools && !names(type.tools, tool)) return false;
    if (names(type.disallowedTools, tool)) return false;
    const readOnly = type.readOnly || type.mode === 'plan';
    if (readOnly && latheFacts(tool).planModeAllowed !== true) return false;
    return true;
  };
}
