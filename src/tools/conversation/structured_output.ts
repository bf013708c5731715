import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { withInteraction } from './no_agent.js';

const inputSchema = lazySchema(() =>
  z.strictObject({
    output: z.unknown().describe('The final answer, matching the required JSON Schema'),
  }),
);

export const structuredOutput = buildTool({
  name: 'structured_output',
  inputSchema,
  description:
    'Give the run’s final answer as JSON matching the required schema (shown in the system prompt). Ends the run.',
  availability: { profiles: ['standard', 'lite', 'simple'], requires: ['jsonSchema'], coordinator: true },
  kind: 'conversation',
  needsAgent: true,
  userFacingName: () => 'Structured output',
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  call: (input, ctx) =>
    withInteraction(ctx, 'structured_output', (agent) => {
      if (!agent.jsonSchema) return { isError: true, text: 'No JSON Schema was given for this run.' };
      const schema = z.fromJSONSchema(agent.jsonSchema as Parameters<typeof z.fromJSONSchema>[0]);
      const checked = schema.safeParse(input.output);
      if (!checked.success) {
        const problems = checked.error.issues.map((i) => `- ${i.path.join('.') || 'output'}: ${i.message}`);
        return {
          isError: true,
          text: `The output does not match the schema:\n${problems.join('\n')}\nFix it and call again.`,
        };
      }
      agent.finish({ kind: 'completion', text: JSON.stringify(input.output), structured: input.output });
      return { text: 'The structured output was accepted.', data: input.output };
    }),
});
