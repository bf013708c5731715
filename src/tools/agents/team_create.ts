import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { displayPath } from '../shared/paths.js';

const inputSchema = lazySchema(() =>
  z.strictObject({
    name: z.string().min(1).describe('The team name (letters, digits, "_", ".", "-")'),
    description: z.string().optional().describe('What the team is for'),
    members: z
      .array(z.string().min(1))
      .optional()
      .describe('Member names, each with its own mailbox (usually the names of the child agents you start)'),
  }),
);

export const teamCreate = buildTool({
  name: 'team_create',
  inputSchema,
  description:
    'Create a named team of agents with a shared task list and a durable mailbox per member. send_message to ' +
    'the team puts the message in every member\'s mailbox ("team/member" for one); a running member is given its ' +
    'unread mail before its next step. Remove the team with team_delete.',
  availability: { profiles: ['standard'], feature: 'swarms' },
  kind: 'other',
  userFacingName: () => 'Create team',
  detail: (input) => input.name,
  async call(input, ctx) {
    if (!ctx.teams) return { isError: true, text: 'Teams are not available here (feature swarms).' };
    try {
      const team = await ctx.teams.create(input);
      const members = team.members.length ? team.members.join(', ') : 'none yet';
      return {
        text: `Created team ${team.name} (members: ${members}) in ${displayPath(ctx, team.folder)}.`,
        data: team,
      };
    } catch (error) {
      return { isError: true, text: (error as Error).message };
    }
  },
});
