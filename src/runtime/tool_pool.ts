import type { LanguageServers } from '../lsp/language_servers.js';
import type { RuntimeConfiguration } from './configuration.js';
import { PoolState } from './pool_state.js';
import type { RuntimeOptions } from './runtime_types.js';
import type { SessionContent } from './session_content.js';

/**
 * The user's agent's pool: the built-ins, then the program's and the MCP servers' tools, chosen
 * under the session's settings, features and capabilities. `isDenied` is the permission
 * engine's, which is made after the pool; the first pool is assembled by `setMode` after it.
 */
export function toolPool(
  configuration: RuntimeConfiguration,
  options: RuntimeOptions,
  content: SessionContent,
  languageServers: LanguageServers,
  isDenied: (name: string) => boolean,
): PoolState {
  const { env, settings, features } = configuration;
  return new PoolState({
    languageServers: languageServers.available,
    builtins: content.builtins,
    hasWorkflows: content.hasWorkflows,
    profile: settings.profile,
    strictPlanMode: settings.strictPlanMode,
    features,
    agentKind: options.agentKind ?? 'main',
    jsonSchema: options.jsonSchema ?? false,
    childAgents: settings.agents.maxDepth > 0,
    nodeEnv: env.NODE_ENV,
    // generate_image draws only with an image model the settings name.
    capabilities: { imageGeneration: settings.images.model !== undefined, ...options.capabilities },
    external: options.externalTools ?? [],
    programTools: options.programTools,
    mcp: options.mcp,
    hasSkills: content.skills.forModel.length > 0,
    isDenied,
  });
}
