import { RuleSet } from '../config/rules/index.js';
import { sessionHooks } from '../hooks/build.js';
import { newSessionId, sessionFolder } from '../session/ids.js';
import { resolveConfiguration } from './configuration.js';
import { languageServersFor } from './language_server_setup.js';
import { permissionEngines } from './permission_engines.js';
import { RuntimePlace } from './place.js';
import { runtimeHandle } from './runtime_handle.js';
import type { Runtime, RuntimeOptions } from './runtime_types.js';
import { RuntimeServices } from './services.js';
import { discoverSessionContent } from './session_content.js';
import { sessionShutdown } from './shutdown.js';
import { toolPool } from './tool_pool.js';
import { toolRuns } from './tool_runs.js';

export { RuntimeError, runtimePlaces } from './configuration.js';
export type { Runtime, RuntimeOptions } from './runtime_types.js';
export type { BackgroundWork } from './services.js';
export type { ExecutionOptions } from './tool_context.js';

/**
 * The SDK entry point: one runtime per session, the same path the CLI and the agent use. In
 * steps: settings and trust; what the session's folders hold (agent types, commands, skills);
 * the language server table and rules; the tool pool and the permission engine (each needs the
 * other); the services of the optional features; the hooks; and the face clients see.
 */
export function createRuntime(options: RuntimeOptions = {}): Runtime {
  const configuration = resolveConfiguration(options);
  const { env, workspace, documentsRoot, settings, trust, warnings } = configuration;
  const cwd = workspace;
  const content = discoverSessionContent(configuration, options.agentTypes);
  const place = new RuntimePlace(workspace, cwd, trust.trusted);
  const languageServers = languageServersFor(configuration);
  const rules = new RuleSet({ workspace, cwd, documentsRoot }, settings.disabledRules);
  warnings.push(...rules.warnings);
  const isDenied = (name: string): boolean => permissions.isToolDenied(name);
  const tools = toolPool(configuration, options, content, languageServers, isDenied);
  const permissionsAt = permissionEngines(configuration, options, tools);
  const permissions = permissionsAt(place);
  warnings.push(...permissions.warnings);
  tools.setMode(permissions.mode);
  if (tools.coordinatorProblem) warnings.push(tools.coordinatorProblem);

  const sessionId = options.sessionId ?? newSessionId();
  const sessionDir = options.sessionDir ?? sessionFolder(documentsRoot, workspace, sessionId);
  const services = new RuntimeServices({
    configuration,
    permissions,
    place,
    canAsk: options.askUser !== undefined && !options.yolo,
    latheBin: options.latheBin,
    sessionId,
    sessionDir,
    yolo: options.yolo,
    approve: options.approve,
    trust: options.trust,
    onFileSeen: (path) => rules.touch(path, place.workspace),
    callsFromUserShell: options.callsFromUserShell,
    languageServers,
  });
  const hooks = sessionHooks({
    settings,
    workspace,
    trusted: trust.trusted,
    sessionId,
    cwd: () => place.cwd,
    env,
    warnings,
    extra: options.hookGroups,
  });

  const { skills, commands } = content;
  const shared = { configuration, permissions, services, place, skills, commands, editor: options.editor };
  const { askUser } = options;
  const tree = { ...shared, tools, rules, types: content.agentTypes, permissionsAt, askUser, hooks };
  return runtimeHandle({
    tree,
    place,
    sessionId,
    sessionDir,
    hooks,
    rules,
    skills,
    commands,
    languageServers,
    runs: toolRuns(shared, { tools, sessionDir, hooks, askUser }),
    dispose: sessionShutdown(hooks, services),
  });
}
