import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { withInteraction } from './no_agent.js';

const inputSchema = lazySchema(() =>
  z.strictObject({
    phase: z.string().min(1).describe('The phase that is finished'),
    summary: z.string().min(1).describe('What was done'),
    verification: z.string().optional().describe('How it was verified, and the outcome'),
    next: z.string().optional().describe('The next phase'),
    requires_acknowledgment: z.boolean().optional().describe('Wait for the user to confirm before going on'),
  }),
);

export const phaseReport = buildTool({
  name: 'phase_report',
  aliases: ['status_update'],
  inputSchema,
  description:
    'Report a finished phase of a longer task: what was done, how it was verified, what comes next. Does not ' +
    'end the turn. With requires_acknowledgment, waits for the user to confirm or stop.',
  liteDescription: 'Report a finished phase; optionally wait for the user.',
  // A subagent talks to its parent only through its final answer.
  availability: { profiles: ['standard', 'lite'], notFor: ['subagent'] },
  kind: 'conversation',
  needsAgent: true,
  userFacingName: () => 'Phase report',
  isReadOnly: () => true,
  call: (input, ctx) =>
    withInteraction(ctx, 'phase_report', async (agent) => {
      const body = [
        input.summary,
        input.verification ? `Verified: ${input.verification}` : '',
        input.next ? `Next: ${input.next}` : '',
      ]
        .filter(Boolean)
        .join('\n');
      agent.emit({ type: 'phase_report', phase: input.phase, markdown: body });
      if (!input.requires_acknowledgment) return { text: 'Reported.' };
      const answer = await agent.confirm({ kind: 'phase', title: input.phase, body });
      if (answer.approved) {
        return {
          text: `The user acknowledged the phase.${answer.feedback ? ` They said: ${answer.feedback}` : ''}`,
        };
      }
      agent.finish({ kind: 'stopped', text: `Stopped by the user after phase "${input.phase}".` });
      return { text: `The user stopped the run.${answer.feedback ? ` They said: ${answer.feedback}` : ''}` };
    }),
});
