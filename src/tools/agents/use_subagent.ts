import type { z } from 'zod';
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

/** use_subagent, its `type` parameter listing these types. */
export function subagentTool(types: readonly AgentTypeSummary[]): Tool {
  const inputSchema = childRequestSchema(types);
  type Input = z.infer<typeof inputSchema>;
  return buildTool<Input>({
    name: 'use_subagent',
    inputSchema,
    description:
      'Hand a self-contained task to a child agent with its own context; you get its final answer, status and ' +
      'usage. Use it for broad searches or side work that would fill your context. Several calls in one message ' +
      'run in parallel.',
    availability: { ...AGENT_TOOLS_AVAILABILITY, coordinator: true },
    kind: 'agent',
    needsAgent: true,
    userFacingName: () => 'Subagent',
    detail: (input) => `${input.type ?? 'general'}: ${input.description}`,
    permissionSubject: (input) => ({ kind: 'subagents', subjects: [input.type ?? 'general'] }),
    // lathe's own facts: children of read-only types change nothing, so Plan mode lets them run;
    // children run side by side, each through its own permission pipeline.
    planModeAllowed: (input) => onlyReadOnly(types, [input]),
    runsInParallel: true,
    validateInput: (input, ctx) => requestProblem([input], ctx),
    call: (input, ctx) => runChildren([input], ctx),
  }) as Tool;
}
