import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { withInteraction } from './no_agent.js';

const inputSchema = lazySchema(() =>
  z.strictObject({
    answer: z.string().min(1).describe('The answer to the user’s question'),
  }),
);

export const qnaRespond = buildTool({
  name: 'qna_respond',
  inputSchema,
  description: 'Answer a question the user asked (no changes needed). Ends the turn.',
  liteDescription: 'Answer the user’s question; ends the turn.',
  // A subagent talks to its parent only through its final answer.
  availability: { profiles: ['standard', 'lite'], notFor: ['subagent'] },
  kind: 'conversation',
  needsAgent: true,
  userFacingName: () => 'Answer',
  isReadOnly: () => true,
  call: (input, ctx) =>
    withInteraction(ctx, 'qna_respond', (agent) => {
      agent.finish({ kind: 'answer', text: input.answer });
      return { text: 'The answer was given to the user.' };
    }),
});
