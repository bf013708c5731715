import type { PathRuleTools } from '../permission/types.js';
import type { Tool, ToolKind } from './types.js';

/** The kinds whose calls look at files or data without changing anything. */
const LOOKING: ReadonlySet<ToolKind> = new Set(['read', 'search']);

/** Whether the tool's calls change files: it declares which (`touchedPaths`). */
export const changesFiles = (tool: Pick<Tool, 'touchedPaths'>): boolean => tool.touchedPaths !== undefined;

/** Whether the tool reads or searches (files, outputs, listings) and changes nothing. */
export const looksOnly = (tool: Pick<Tool, 'kind'>): boolean => LOOKING.has(tool.kind);

/** Whether a turn of only these calls announces work without doing it (a reply after it is no final answer). */
export const announcesOnly = (tool: Pick<Tool, 'kind'>): boolean => tool.kind === 'think';

/**
 * The tools whose path rules guard every tool's reads (readers, searchers) and writes (file changers),
 * and those that run commands.
 */
export function pathRuleTools(tools: readonly Tool[]): PathRuleTools {
  return {
    reading: tools.filter(looksOnly).map((t) => t.name),
    writing: tools.filter(changesFiles).map((t) => t.name),
    commands: tools.filter((t) => t.kind === 'execute').map((t) => t.name),
  };
}
