import type { AgentTypeSummary } from '../../tool/context/agents.js';
import type { Tool } from '../../tool/types.js';
import { subagentTool } from './use_subagent.js';
import { subagentBatchTool } from './use_subagents.js';

/** The tools that start child agents, their `type` parameter listing `types`. */
export function agentTools(types: readonly AgentTypeSummary[]): Tool[] {
  return [subagentTool(types), subagentBatchTool(types)];
}
