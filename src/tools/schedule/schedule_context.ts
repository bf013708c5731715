import type { ScheduleAccess } from '../../tool/context/schedules.js';
import type { ToolContext, ToolOutput } from '../../tool/types.js';

/** The runtime's schedule services, or the error a tool returns without them. */
export function scheduleServices(ctx: ToolContext): { services: ScheduleAccess } | { error: ToolOutput } {
  if (ctx.schedules) return { services: ctx.schedules() };
  return {
    error: { isError: true, text: 'Schedules are not available here: this run has no schedule services.' },
  };
}

/** Notices not shown yet (missed runs, errors), appended to a tool's text. */
export function withNotices(services: ScheduleAccess, text: string): string {
  const notices = services.takeNotices();
  return notices.length ? `${text}\n\nNotices:\n${notices.map((n) => `- ${n}`).join('\n')}` : text;
}
