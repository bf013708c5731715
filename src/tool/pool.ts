import type { ToolName } from '../config/builtin_tool_names.js';
import { unmetCondition } from './conditions.js';
import type { PoolConditions, Tool } from './types.js';

/** Without it a coordinator could not delegate at all. */
const DELEGATING_TOOL: ToolName = 'use_subagent';

/** Coordinator mode leaves the lead only the tools that say so (`availability.coordinator`). */
const forCoordinator = (tool: Tool) => tool.availability.coordinator === true;

export interface PoolOptions {
  builtins: readonly Tool[];
  external?: readonly Tool[];
  conditions: PoolConditions;
  /** A tool-wide deny rule removes the tool from the pool. */
  isDenied?: (name: string) => boolean;
}

const byName = (a: Tool, b: Tool) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Whether coordinator mode is asked for: feature `coordinator`, and the user's own agent. */
const coordinatorAsked = (conditions: PoolConditions) =>
  conditions.features.has('coordinator') && conditions.agentKind === 'main';

/**
 * The tool pool: built-ins sorted by name, then external (MCP) tools sorted by name,
 * de-duplicated by name with the built-in winning; tools whose conditions fail, or that a
 * tool-wide deny rule names, are left out. In coordinator mode the lead gets only the
 * coordinator's tools (see `coordinatorPool`).
 */
export function assemblePool(options: PoolOptions): Tool[] {
  const { conditions } = options;
  const offered = (tool: Tool) =>
    unmetCondition(tool, conditions) === undefined && !(options.isDenied?.(tool.name) ?? false);
  const builtins = options.builtins.filter(offered).sort(byName);
  const taken = new Set(builtins.map((t) => t.name));
  const external: Tool[] = [];
  for (const tool of [...(options.external ?? [])].sort(byName)) {
    if (taken.has(tool.name) || !offered(tool)) continue;
    taken.add(tool.name);
    external.push(tool);
  }
  const pool = [...builtins, ...external];
  if (!coordinatorAsked(conditions)) return pool;
  return coordinatorPool(options) ?? pool;
}

/**
 * The coordinator's tools, each offered whatever its own feature switch says (coordinator mode
 * asks for them), as long as its other conditions hold and no deny
 * rule removes it. Undefined when use_subagent is not among them: a lead that cannot delegate
 * keeps its usual tools rather than being left with nothing useful (`coordinatorProblem` says why).
 */
function coordinatorPool(options: PoolOptions): Tool[] | undefined {
  const led = options.builtins
    .filter((tool) => forCoordinator(tool) && coordinatorProblemOf(tool, options) === undefined)
    .sort(byName);
  return hasTool(led, DELEGATING_TOOL) ? led : undefined;
}

/** Why a coordinator tool is not offered to the lead, or undefined when it is. */
function coordinatorProblemOf(tool: Tool, options: PoolOptions): string | undefined {
  const { feature } = tool.availability;
  const features = feature ? new Set([...options.conditions.features, feature]) : options.conditions.features;
  const unmet = unmetCondition(tool, { ...options.conditions, features });
  if (unmet) return unmet;
  return options.isDenied?.(tool.name) ? 'a deny rule removes it' : undefined;
}

/**
 * Why coordinator mode was asked for (feature `coordinator`) but does not apply, so the lead
 * kept its usual tools; undefined when it applies or was not asked for.
 */
export function coordinatorProblem(options: PoolOptions): string | undefined {
  if (!coordinatorAsked(options.conditions) || coordinatorPool(options)) return undefined;
  const delegating = options.builtins.find((tool) => tool.name === DELEGATING_TOOL);
  const why = delegating ? coordinatorProblemOf(delegating, options) : 'this build has no use_subagent';
  return `coordinator mode is off: the lead could not delegate, as ${DELEGATING_TOOL} is not offered (${why}); it keeps its usual tools`;
}

/** Whether this pool is a coordinator's: the lead delegates and does no work itself. */
export function isCoordinatorPool(conditions: PoolConditions, pool: readonly Tool[]): boolean {
  return coordinatorAsked(conditions) && hasTool(pool, DELEGATING_TOOL) && pool.every(forCoordinator);
}

/** Whether the built-in `name` is in the pool. */
export function hasTool(pool: readonly Tool[], name: ToolName): boolean {
  return pool.some((tool) => tool.name === name);
}

/** Finds a tool by name or alias. */
export function findTool(pool: readonly Tool[], name: string): Tool | undefined {
  return pool.find((t) => t.name === name) ?? pool.find((t) => t.aliases.includes(name));
}
