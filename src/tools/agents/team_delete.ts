import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { touchesNothing } from '../../tool/declared_subject.js';
import { lazySchema } from '../../tool/lazy_schema.js';

export const teamDelete = buildTool({
  name: 'team_delete',
  inputSchema: lazySchema(() => z.strictObject({ name: z.string().min(1).describe('The team to remove') })),
  description:
    'Remove a team: its mailboxes and shared task list are deleted. Refused while a member is still running: stop it first.',
  availability: { profiles: ['standard'], feature: 'swarms' },
  kind: 'delete',
  // Touches only lathe's own team records: nothing the permission engine judges.
  permissionSubject: touchesNothing,
  userFacingName: () => 'Delete team',
  detail: (input) => input.name,
  // lathe's own fact: the team's mailboxes and task list are gone for good.
  destroysExisting: true,
  async call(input, ctx) {
    if (!ctx.teams) return { isError: true, text: 'Teams are not available here (feature swarms).' };
    try {
      const team = await ctx.teams.delete(input.name);
      return { text: `Deleted team ${team.name} and its mailboxes.`, data: team };
    } catch (error) {
      return { isError: true, text: (error as Error).message };
    }
  },
});
