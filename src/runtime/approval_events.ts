import { callLabel } from '../tool/call_label.js';
import type { AgentInteraction } from '../tool/context/agent.js';
import type { ApprovalObserver, ApprovalRequest } from '../tool/run_call.js';

/** Characters of a call's summary in an approval event: enough to tell calls apart. */
const SUMMARY_CHARS = 200;

function summary(request: ApprovalRequest): string {
  const { verb, detail } = callLabel(request.tool, request.call.name, request.input, (path) => path);
  const line = `${verb} ${detail}`.replace(/\s+/g, ' ').trim();
  return line.length > SUMMARY_CHARS ? `${line.slice(0, SUMMARY_CHARS - 1)}…` : line;
}

/**
 * Each ask and its answer as events of the agent running the call (`approval_request`,
 * `approval_answer`): clients see them as they see its tool calls, a child's tagged with the child.
 */
export function approvalEvents(interaction: AgentInteraction | undefined): ApprovalObserver | undefined {
  if (!interaction) return undefined;
  return {
    asked: (request) =>
      interaction.emit({
        type: 'approval_request',
        id: request.call.id,
        tool: request.tool.name,
        inputSummary: summary(request),
        reason: request.reason,
        ...(request.category ? { category: request.category } : {}),
      }),
    answered: (request, verdict) =>
      interaction.emit({ type: 'approval_answer', id: request.call.id, tool: request.tool.name, ...verdict }),
  };
}
