import { unmetCondition } from './conditions.js';
import type { PoolConditions, Tool } from './types.js';

/** Coordinator mode leaves the lead only these tools: it delegates, it does not work itself. */
const COORDINATOR_TOOLS = new Set(['use_subagent', 'task_stop', 'send_message', 'structured_output']);

export interface PoolOptions {
  builtins: readonly Tool[];
  external?: readonly Tool[];
  conditions: PoolConditions;
  /** A tool-wide deny rule removes the tool from the pool. */
  isDenied?: (name: string) => boolean;
}

const byName = (a: Tool, b: Tool) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * The tool pool: built-ins sorted by name, then external (MCP) tools sorted by name,
 * de-duplicated by name with the built-in winning; tools whose conditions fail, or that a
 * tool-wide deny rule names, are left out.
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
  if (conditions.features.has('coordinator') && conditions.agentKind === 'main') {
    return pool.filter((t) => COORDINATOR_TOOLS.has(t.name));
  }
  return pool;
}

/** Finds a tool by name or alias. */
export function findTool(pool: readonly Tool[], name: string): Tool | undefined {
  return pool.find((t) => t.name === name) ?? pool.find((t) => t.aliases.includes(name));
}
