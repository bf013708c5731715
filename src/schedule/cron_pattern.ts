import { Cron } from 'croner';

/** At most this many missed runs are counted; beyond it the count reads "at least". */
export const MISSED_COUNT_CAP = 10_000;

/** Why a cron expression is not usable, or undefined when it is. */
export function scheduleProblem(schedule: string): string | undefined {
  const fields = schedule.trim().split(/\s+/).length;
  if (!schedule.trim().startsWith('@') && (fields < 5 || fields > 6))
    return `"${schedule}" has ${fields} fields; use 5 (minute hour day month weekday) or 6 (seconds first).`;
  try {
    const next = new Cron(schedule).nextRun();
    if (!next) return `"${schedule}" never runs again.`;
  } catch (error) {
    return `"${schedule}" is not a cron expression: ${(error as Error).message}`;
  }
  return undefined;
}

/** The first run strictly after `after` (default: now), or undefined. */
export function nextRun(schedule: string, after: Date = new Date()): Date | undefined {
  return new Cron(schedule).nextRun(after) ?? undefined;
}

/** Runs in (`since`, `until`]: how many, and the last one. */
export function runsBetween(schedule: string, since: Date, until: Date): { count: number; last?: Date } {
  const cron = new Cron(schedule);
  let count = 0;
  let last: Date | undefined;
  let cursor: Date | null = cron.nextRun(since);
  while (cursor && cursor <= until && count < MISSED_COUNT_CAP) {
    count++;
    last = cursor;
    cursor = cron.nextRun(cursor);
  }
  // A capped count still names the true last run, found by walking back from `until`.
  if (count === MISSED_COUNT_CAP) last = cron.previousRuns(1, new Date(until.getTime() + 1))[0] ?? last;
  return { count, last };
}
