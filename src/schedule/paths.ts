import { join } from 'node:path';

/** Where schedules live: `<documents-root>/schedules/`. */
export function schedulesDir(documentsRoot: string): string {
  return join(documentsRoot, 'schedules');
}

export function cronStorePath(documentsRoot: string): string {
  return join(schedulesDir(documentsRoot), 'cron.json');
}

export function triggerStorePath(documentsRoot: string): string {
  return join(schedulesDir(documentsRoot), 'triggers.json');
}

/** One empty file per fired run, so two lathe processes never fire the same run twice. */
export function claimsDir(documentsRoot: string): string {
  return join(schedulesDir(documentsRoot), 'claims');
}

/** The output of headless runs started by schedules and triggers. */
export function runsDir(documentsRoot: string): string {
  return join(schedulesDir(documentsRoot), 'runs');
}
