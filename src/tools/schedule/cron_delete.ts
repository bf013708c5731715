import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { touchesNothing } from '../../tool/declared_subject.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { scheduleServices, withNotices } from './schedule_context.js';

export const cronDelete = buildTool({
  name: 'cron_delete',
  inputSchema: lazySchema(() =>
    z.strictObject({
      id: z.string().min(1).describe('The id cron_create returned (see cron_list)'),
    }),
  ),
  description: 'Remove a scheduled prompt; it will not run again.',
  availability: { profiles: ['standard'], feature: 'triggers' },
  kind: 'delete',
  // Touches only lathe's own schedules: nothing the permission engine judges.
  permissionSubject: touchesNothing,
  userFacingName: () => 'Unschedule',
  // lathe's own fact: the scheduled prompt is gone for good.
  destroysExisting: true,
  async call(input, ctx) {
    const found = scheduleServices(ctx);
    if ('error' in found) return found.error;
    const job = await found.services.deleteCron(input.id);
    if (!job) {
      const ids = (await found.services.listCron()).map((j) => j.id);
      return {
        isError: true,
        text: `No scheduled prompt ${input.id}. Scheduled: ${ids.length ? ids.join(', ') : 'none'}.`,
      };
    }
    return {
      text: withNotices(found.services, `Deleted ${job.id} (${job.schedule}): ${job.prompt}`),
      data: job,
    };
  },
});
