import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { withInteraction } from './no_agent.js';

const inputSchema = lazySchema(() =>
  z.strictObject({
    message: z
      .string()
      .min(1)
      .describe('What the next tool call does and why, or the reply to the user’s message'),
  }),
);

export const workingRespond = buildTool({
  name: 'working_respond',
  aliases: ['act_mode_respond'],
  inputSchema,
  description:
    'Tell the user briefly what your next tool call does and why, answer a message they sent while you work, ' +
    'or acknowledge a correction. It does not end the turn: a real tool call must follow in the same message.',
  liteDescription: 'Short status for the user; must be followed by a real tool call.',
  // A subagent talks to its parent only through its final answer.
  availability: { profiles: ['standard', 'lite'], notFor: ['subagent'] },
  // It says what the next step is; a turn of only this call is not the end of the work.
  kind: 'think',
  needsAgent: true,
  userFacingName: () => 'Working',
  isReadOnly: () => true,
  call: (input, ctx) =>
    withInteraction(ctx, 'working_respond', (agent) => {
      agent.emit({ type: 'working', message: input.message });
      return { text: 'Shown to the user. Now make the tool call you announced.' };
    }),
});
