import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import type { ScheduledPrompt } from '../../tool/context/schedules.js';
import { touchesNothing } from '../../tool/declared_subject.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { scheduleServices, withNotices } from './schedule_context.js';

function jobLine(job: ScheduledPrompt, workspace: string): string {
  const parts = [`${job.id} ${job.schedule} (${job.recurring ? 'recurring' : 'once'}): ${job.prompt}`];
  parts.push(`next ${job.nextRunAt ?? 'never'}`);
  if (job.lastRunAt) parts.push(`last ran ${job.lastRunAt}`);
  if (job.missed)
    parts.push(`missed ${job.missed.count} while lathe was not running (last ${job.missed.lastAt})`);
  if (job.workspace !== workspace) parts.push(`fires only in ${job.workspace}`);
  return parts.join('; ');
}

export const cronList = buildTool({
  name: 'cron_list',
  inputSchema: lazySchema(() => z.strictObject({})),
  description: 'List the scheduled prompts: schedule, prompt, next and last run, runs missed.',
  availability: { profiles: ['standard'], feature: 'triggers' },
  kind: 'read',
  // Touches only lathe's own schedules: nothing the permission engine judges.
  permissionSubject: touchesNothing,
  example: { input: {} },
  userFacingName: () => 'Schedules',
  // Listing changes nothing (seed 001: CronList is read-only and concurrency-safe).
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  async call(_input, ctx) {
    const found = scheduleServices(ctx);
    if ('error' in found) return found.error;
    const jobs = await found.services.listCron();
    const text = jobs.length
      ? jobs.map((j) => jobLine(j, ctx.workspace)).join('\n')
      : 'No scheduled prompts; cron_create makes one.';
    return { text: withNotices(found.services, text), data: jobs };
  },
});
