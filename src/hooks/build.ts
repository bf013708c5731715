import { loadHooks } from '../config/hooks/load.js';
import type { HookGroup } from '../config/hooks/types.js';
import type { ResolvedSettings } from '../config/settings.js';
import { AgentHooks } from './agent_hooks.js';
import { HookSet } from './hook_set.js';

/**
 * A session's hooks, from its settings (an untrusted workspace's never among them) and, with
 * `hooks.readClaude`, Claude Code's settings files. Problems are pushed onto `warnings`.
 */
export function sessionHooks(options: {
  settings: ResolvedSettings;
  workspace: string;
  trusted: boolean;
  sessionId: string;
  cwd: () => string;
  env: NodeJS.ProcessEnv;
  warnings: string[];
  /** A program's hooks (the SDK's `hooks` option), after those of the settings. */
  extra?: readonly HookGroup[];
}): AgentHooks {
  const { settings, workspace, trusted, sessionId, cwd, env, warnings } = options;
  const loaded = loadHooks({ layers: settings.hooks, workspace, trusted, home: env.HOME || undefined });
  const groups = [...loaded.groups, ...(options.extra ?? [])];
  const set = new HookSet(groups, { sessionId, workspace, cwd, env });
  warnings.push(...loaded.warnings, ...set.problems);
  return new AgentHooks(set);
}
