import {
  DEFAULT_HOOK_TIMEOUT_SECONDS,
  HOOK_EVENTS,
  type HookEventName,
  type HookGroup,
} from '../config/hooks/types.js';
import { UsageError } from './errors.js';
import type { QueryOptions } from './options.js';

const SOURCE = 'query options (hooks)';

/**
 * The program's hook functions as hook groups: each runs at its event as a hook command of the
 * settings would, gets the same fields and answers in the same shape (`{decision: 'block',
 * reason}`, `{hookSpecificOutput: {permissionDecision, updatedInput}}`, `{continue: false}`, …).
 */
export function programHookGroups(hooks: QueryOptions['hooks']): HookGroup[] {
  const groups: HookGroup[] = [];
  for (const [event, list] of Object.entries(hooks ?? {})) {
    if (!(HOOK_EVENTS as readonly string[]).includes(event))
      throw new UsageError(`hooks: "${event}" is no hook event; use ${HOOK_EVENTS.join(', ')}`);
    for (const [index, group] of (list ?? []).entries()) {
      if (!Array.isArray(group?.hooks) || !group.hooks.every((fn) => typeof fn === 'function'))
        throw new UsageError(`hooks.${event}[${index}]: "hooks" must be a list of functions`);
      const timeout = group.timeout ?? DEFAULT_HOOK_TIMEOUT_SECONDS;
      if (!(timeout > 0))
        throw new UsageError(`hooks.${event}[${index}]: "timeout" must be a positive number of seconds`);
      groups.push({
        event: event as HookEventName,
        matcher: group.matcher ?? '',
        source: SOURCE,
        hooks: group.hooks.map((run) => ({
          command: `function ${run.name || '(anonymous)'}`,
          timeoutSeconds: timeout,
          failClosed: group.failClosed ?? false,
          run,
        })),
      });
    }
  }
  return groups;
}
