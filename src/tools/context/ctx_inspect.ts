import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { contextReportText } from '../../tool/context/conversation.js';
import { lazySchema } from '../../tool/lazy_schema.js';

export const ctxInspect = buildTool({
  name: 'ctx_inspect',
  inputSchema: lazySchema(() => z.strictObject({})),
  description:
    'See what fills your context window: tokens by part (system prompt, tools, rules, skills list, messages, ' +
    'tool results), the total against the window and the compaction threshold, the largest items with the ids ' +
    "snip takes, and the user's lasting instructions. Use it before snip, or when the context seems full.",
  availability: { profiles: ['standard'], feature: 'context_collapse' },
  kind: 'other',
  userFacingName: () => 'Inspect context',
  // lathe's own fact: it reads lathe's own context, so Plan mode lets it run.
  planModeAllowed: true,
  example: { input: {} },
  async call(_input, ctx) {
    if (!ctx.conversation)
      return {
        isError: true,
        text: "ctx_inspect reports a running session's context, and there is none here: use it inside a session (or /context in the UI).",
      };
    const report = await ctx.conversation.inspect();
    return { text: contextReportText(report), data: report };
  },
});
