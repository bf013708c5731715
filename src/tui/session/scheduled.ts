import type { ScheduledPromptHandler } from '../../schedule/schedule_host.js';
import type { UiStore } from '../state/store.js';

/**
 * Prompts of cron schedules and remote triggers (features `triggers`, `remote_triggers`) come
 * in as if typed: run at once when the agent is idle, queued for its next step when it works.
 */
export function scheduledPromptHandler(
  store: UiStore,
  submit: (text: string, shown: string) => void,
): ScheduledPromptHandler {
  return (event) => {
    if (event.kind === 'prompt') submit(event.prompt, `(scheduled) ${event.prompt}`);
    else if (event.kind === 'missed')
      store.add({
        kind: 'notice',
        tone: 'warn',
        text: `Missed ${event.count} scheduled run(s) of "${event.prompt}" while lathe was not running.`,
      });
    else store.add({ kind: 'notice', tone: 'info', text: event.message });
  };
}
