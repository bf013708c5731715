import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { withInteraction } from './no_agent.js';

const inputSchema = lazySchema(() =>
  z.strictObject({
    question: z.string().min(1).describe('One clear question'),
    options: z.array(z.string()).max(8).optional().describe('Choices the user can pick from (2-5 is best)'),
  }),
);

export const askFollowupQuestion = buildTool({
  name: 'ask_followup_question',
  inputSchema,
  description:
    'Ask the user a question when you cannot go on without their answer (an ambiguity, a missing detail). ' +
    'Offer options when the answer is a choice. Do not ask what you can find out with the tools.',
  liteDescription: 'Ask the user a question you need answered.',
  availability: { profiles: ['standard', 'lite'], notFor: ['subagent'] },
  kind: 'conversation',
  needsAgent: true,
  userFacingName: () => 'Question',
  isReadOnly: () => true,
  // Questions asked side by side wait their turn with the user, one at a time.
  isConcurrencySafe: () => true,
  call: (input, ctx) =>
    withInteraction(ctx, 'ask_followup_question', async (agent) => {
      const { answer, present } = await agent.ask(input.question, input.options);
      return { text: present ? `The user answered: ${answer}` : answer, data: { answer, present } };
    }),
});
