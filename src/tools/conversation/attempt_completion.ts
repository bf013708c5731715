import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { withInteraction } from './no_agent.js';

const inputSchema = lazySchema(() =>
  z.strictObject({
    result: z.string().min(1).describe('What was done, for the user; final, not a question'),
    command: z.string().optional().describe('A command the user can run to see the result'),
  }),
);

export const attemptCompletion = buildTool({
  name: 'attempt_completion',
  inputSchema,
  description:
    'Finish the task: give the final result once the work is done and verified. Call it alone, after the ' +
    'results of earlier tool calls have come back.',
  liteDescription: 'Finish the task with the final result.',
  availability: { profiles: ['standard', 'lite'] },
  kind: 'conversation',
  needsAgent: true,
  userFacingName: () => 'Completion',
  isReadOnly: () => true,
  call: (input, ctx) =>
    withInteraction(ctx, 'attempt_completion', (agent) => {
      const text = input.command ? `${input.result}\n\nTo see it: ${input.command}` : input.result;
      agent.finish({ kind: 'completion', text });
      return { text: 'The result was given to the user.' };
    }),
});
