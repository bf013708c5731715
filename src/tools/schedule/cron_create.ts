import { z } from 'zod';
import { scheduleProblem } from '../../schedule/cron_pattern.js';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { scheduleServices, withNotices } from './schedule_context.js';

const inputSchema = lazySchema(() =>
  z.strictObject({
    schedule: z
      .string()
      .min(1)
      .describe(
        'A cron expression in local time: "minute hour day month weekday"; 6 fields put seconds first',
      ),
    prompt: z.string().min(1).describe('The prompt to run at each due time'),
    recurring: z
      .boolean()
      .optional()
      .describe('false: run once, at the next match, then forget it (default true)'),
  }),
);

export const cronCreate = buildTool({
  name: 'cron_create',
  inputSchema,
  description:
    'Schedule a prompt with a cron expression, e.g. "0 9 * * 1-5" (weekdays at 9:00) or "*/30 * * * *" (every ' +
    '30 minutes). While lathe runs in this workspace, each due run sends the prompt into the session, or starts ' +
    'a headless run when no one is there. Runs missed while lathe was not running are reported once, not ' +
    'replayed. Schedules are kept across sessions; list them with cron_list, remove them with cron_delete.',
  availability: { profiles: ['standard'], feature: 'triggers' },
  kind: 'other',
  userFacingName: () => 'Schedule',
  // A scheduled prompt later runs the agent with no one watching: it asks as a command would.
  permissionSubject: () => ({ kind: 'execute', readOnlyCommand: false }),
  validateInput: (input) => scheduleProblem(input.schedule),
  async call(input, ctx) {
    const found = scheduleServices(ctx);
    if ('error' in found) return found.error;
    const job = await found.services.createCron({
      schedule: input.schedule,
      prompt: input.prompt,
      recurring: input.recurring ?? true,
    });
    const when = job.recurring ? 'recurring' : 'once';
    return {
      text: withNotices(
        found.services,
        `Scheduled ${job.id} (${job.schedule}, ${when}); next run ${job.nextRunAt ?? 'never'}.`,
      ),
      data: job,
    };
  },
});
