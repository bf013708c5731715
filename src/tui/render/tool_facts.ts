import { changesFiles } from '../../tool/kinds.js';
import type { Tool } from '../../tool/types.js';
import { builtinTool, builtinTools } from '../../tools/index.js';

/**
 * What the UI shows of a tool comes from its declaration, looked up by name: a call of any
 * session (resumed, or of another profile) is shown the same way. Tools it does not know (an MCP
 * server's) are shown by their name and arguments.
 */
export const declaredTool = (name: string): Tool | undefined => builtinTool(name);

/** Calls of the tools that talk to the user show as their own entries (a question, a plan), not as tool lines. */
export const showsOwnEntry = (name: string): boolean => declaredTool(name)?.needsAgent ?? false;

/** How the tool's finished result is previewed collapsed. */
export const resultView = (name: string): Tool['resultView'] => declaredTool(name)?.resultView ?? 'head';

/** Whether the tool runs shell commands (its rules name commands, its approval shows the command). */
export const runsCommands = (name: string): boolean => declaredTool(name)?.kind === 'execute';

/** The tools that change files: one "edits in this folder" rule covers them all. */
export function fileChangingTools(): string[] {
  return builtinTools()
    .filter(changesFiles)
    .map((t) => t.name);
}
