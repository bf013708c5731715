import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';

const n = (value: number) => value.toLocaleString('en-US');

export const snip = buildTool({
  name: 'snip',
  inputSchema: lazySchema(() =>
    z
      .strictObject({
        ids: z
          .array(z.string().min(1))
          .min(1)
          .optional()
          .describe(
            'What to cut: msg-N for a message, a tool call id for its result (ctx_inspect lists both)',
          ),
        before_turn: z
          .number()
          .int()
          .min(2)
          .optional()
          .describe('Cut every message before this user turn (1 is the first prompt)'),
      })
      .refine((input) => (input.ids === undefined) !== (input.before_turn === undefined), {
        message: 'give either ids or before_turn',
      }),
  ),
  description:
    'Cut old messages or tool results you no longer need out of your context, to make room. Each cut item ' +
    'leaves a one-line stub saying what was removed and that the full text stays in the session log. Name ' +
    'items by the ids ctx_inspect lists (msg-N, or a tool call id for its result), or cut everything before ' +
    "a user turn with before_turn. The user's latest prompt and their lasting instructions (# lines) always stay.",
  availability: { profiles: ['standard'], feature: 'history_snip' },
  kind: 'other',
  userFacingName: () => 'Snip context',
  isReadOnly: () => false,
  example: { input: { ids: ['call_1'] } },
  detail: (input) => (input.ids ? input.ids.join(', ') : `before turn ${input.before_turn}`),
  async call(input, ctx) {
    const snipper = ctx.conversation?.snip;
    if (!snipper)
      return {
        isError: true,
        text: "snip cuts a running session's context, and there is none here: use it inside a session.",
      };
    const outcome = await snipper({ ids: input.ids, beforeTurn: input.before_turn });
    if (!outcome.ok) return { isError: true, text: outcome.error };
    const lines = outcome.removed.map((r) => `${r.id}: ${r.what} (${n(r.tokens)} tokens)`);
    return {
      text: `Cut ${outcome.removed.length} item(s), freeing about ${n(outcome.freed)} tokens:\n${lines.join('\n')}`,
      data: outcome,
    };
  },
});
