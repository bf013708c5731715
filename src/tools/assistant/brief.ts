import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';

export const brief = buildTool({
  name: 'brief',
  inputSchema: lazySchema(() =>
    z.strictObject({
      on: z.boolean().describe('true: concise output from now on; false: back to the usual detail'),
    }),
  ),
  description:
    'Switch concise-output mode. On: your replies become short (the result, what changed, what is next; no ' +
    'preamble, no restating tool output) until it is switched off. Use it when the user asks for terse ' +
    'answers or works through many small requests; switch it off when they ask for explanations.',
  availability: { profiles: ['standard'], feature: 'assistant' },
  kind: 'other',
  userFacingName: () => 'Brief',
  detail: (input) => (input.on ? 'on' : 'off'),
  isConcurrencySafe: () => true,
  // lathe's own fact: it switches lathe's own output mode, so Plan mode lets it run.
  planModeAllowed: true,
  async call(input, ctx) {
    if (!ctx.brief) return { isError: true, text: 'Brief mode is not available in this session.' };
    const was = ctx.brief.on;
    ctx.brief.set(input.on);
    ctx.interaction?.emit({ type: 'brief', on: input.on });
    const state = input.on ? 'on: keep every reply short' : 'off: replies as detailed as the task needs';
    return {
      text: `Brief mode ${was === input.on ? 'was already' : 'is now'} ${state}.`,
      data: { on: input.on, changed: was !== input.on },
    };
  },
});
