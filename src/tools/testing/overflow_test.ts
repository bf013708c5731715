import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';

/** Test-only: returns as many characters as asked, to exercise result budgeting. */
export const overflowTest = buildTool({
  name: 'overflow_test',
  inputSchema: lazySchema(() =>
    z.strictObject({
      chars: z.number().int().min(0).max(50_000_000),
      delay_ms: z.number().int().min(0).max(10_000).optional(),
    }),
  ),
  description: 'Test tool: returns `chars` characters of numbered lines, after `delay_ms`.',
  availability: { profiles: ['standard', 'lite', 'simple'], testOnly: true },
  kind: 'other',
  userFacingName: () => 'Overflow test',
  maxResultChars: 10_000,
  // lathe's own facts: it changes nothing, and the executor's parallel batches are tested with it.
  planModeAllowed: true,
  runsInParallel: true,
  async call(input, ctx) {
    if (input.delay_ms) await new Promise((resolve) => setTimeout(resolve, input.delay_ms));
    if (ctx.signal.aborted) return { isError: true, text: 'cancelled' };
    let text = '';
    for (let i = 0; text.length < input.chars; i++) text += `line ${i}\n`;
    return { text: text.slice(0, input.chars) };
  },
});
