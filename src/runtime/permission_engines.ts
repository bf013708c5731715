import { RulePermissionEngine } from '../permission/engine.js';
import { pathRuleTools } from '../tool/kinds.js';
import type { RuntimeConfiguration } from './configuration.js';
import type { RuntimePlace } from './place.js';
import type { PoolState } from './pool_state.js';
import type { RuntimeOptions } from './runtime_types.js';

/**
 * Makes the permission engine of a place (the workspace, or a child's worktree) with the
 * user's rules, switches and trust; tool names in rules are read as the pool's tools name them.
 */
export function permissionEngines(
  configuration: RuntimeConfiguration,
  options: RuntimeOptions,
  tools: PoolState,
): (at: RuntimePlace) => RulePermissionEngine {
  const { workspace, documentsRoot, settings, trust } = configuration;
  return (at) =>
    new RulePermissionEngine({
      settings,
      workspace,
      documentsRoot,
      cwd: workspace,
      place: at,
      yolo: options.yolo,
      approve: options.approve,
      workspaceTrusted: trust.trusted,
      canonicalName: tools.canonicalName,
      extraRoots: options.addDirs,
      pathRuleTools: pathRuleTools(tools.builtins),
    });
}
