import type { ToolName } from '../../config/builtin_tool_names.js';
import type { AgentInteraction } from '../../tool/context/agent.js';
import type { ToolContext, ToolOutput } from '../../tool/types.js';

/** The conversation tools talk to an agent; run alone (`lathe tool`), they say so. */
export async function withInteraction(
  ctx: ToolContext,
  name: ToolName,
  fn: (interaction: AgentInteraction) => Promise<ToolOutput> | ToolOutput,
): Promise<ToolOutput> {
  if (!ctx.interaction) {
    return { isError: true, text: `${name} talks to the user through a running agent; there is none here.` };
  }
  return fn(ctx.interaction);
}
