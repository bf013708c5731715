import type { SearchableTool } from './context/deferred_tools.js';
import { inputJsonSchema } from './definition.js';
import type { Tool } from './types.js';

/** The first sentence of a description: what a deferred tool keeps in the prompt. */
export function firstSentence(description: string): string {
  const found = description.match(/^[\s\S]*?[.!?](?=\s|$)/);
  return (found?.[0] ?? description).replace(/\s+/g, ' ').trim();
}

/** A deferred tool's line in tool_search's description: its name and what it does. */
export function deferredLine(tool: Tool): string {
  return `- ${tool.name}: ${firstSentence(tool.description)}`;
}

/** A deferred built-in as tool_search finds and describes it. */
export function searchableBuiltin(tool: Tool, heldBack: boolean): SearchableTool {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: inputJsonSchema(tool),
    deferred: heldBack,
  };
}

/**
 * The built-ins whose definitions are held back: the deferred ones not loaded yet, in a pool that
 * offers `search` to load them; in a pool without it (a profile, a deny rule, a child's type) every
 * tool's definition is given.
 */
export function heldBackTools(pool: readonly Tool[], search: string, loaded: ReadonlySet<string>): Tool[] {
  if (!pool.some((tool) => tool.name === search)) return [];
  return pool.filter((tool) => tool.source === 'builtin' && tool.deferred && !loaded.has(tool.name));
}
