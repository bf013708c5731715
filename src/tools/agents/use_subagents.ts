import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import type { AgentTypeSummary } from '../../tool/context/agents.js';
import type { Tool } from '../../tool/types.js';
import {
  AGENT_TOOLS_AVAILABILITY,
  childRequestSchema,
  onlyReadOnly,
  requestProblem,
  runChildren,
} from './child_request.js';

/** use_subagents, its tasks' `type` parameter listing these types. */
export function subagentBatchTool(types: readonly AgentTypeSummary[]): Tool {
  const inputSchema = z.strictObject({
    tasks: z.array(childRequestSchema(types)).min(1, 'tasks is empty: give at least one task').max(16),
  });
  type Input = z.infer<typeof inputSchema>;
  return buildTool<Input>({
    name: 'use_subagents',
    inputSchema,
    description:
      'Run several independent tasks as child agents in parallel (each task as use_subagent takes it); ' +
      'the results come back in the order given.',
    availability: AGENT_TOOLS_AVAILABILITY,
    kind: 'agent',
    needsAgent: true,
    userFacingName: () => 'Subagents',
    detail: (input) => input.tasks.map((t) => t.description).join(', '),
    permissionSubject: (input) => ({
      kind: 'subagents',
      subjects: [...new Set(input.tasks.map((t) => t.type ?? 'general'))],
    }),
    // lathe's own facts: children of read-only types change nothing, so Plan mode lets them run;
    // children run side by side, each through its own permission pipeline.
    planModeAllowed: (input) => onlyReadOnly(types, input.tasks),
    runsInParallel: true,
    validateInput: (input, ctx) => requestProblem(input.tasks, ctx),
    call: (input, ctx) => runChildren(input.tasks, ctx),
  }) as Tool;
}
