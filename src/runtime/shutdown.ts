import type { AgentHooks } from '../hooks/index.js';
import type { RuntimeServices } from './services.js';

/**
 * Ends the session: its `SessionEnd` hooks run once (`exit`), then everything the services
 * started stops (background commands, tasks, schedules, endpoint, runs).
 */
export function sessionShutdown(hooks: AgentHooks, services: RuntimeServices): () => Promise<void> {
  let sessionEnded = false;
  return async () => {
    if (!sessionEnded) {
      sessionEnded = true;
      await hooks.ended('exit');
    }
    await services.dispose();
  };
}
