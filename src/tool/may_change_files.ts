import type { CallFacts } from './facts.js';
import type { Tool } from './types.js';

/**
 * Whether a call may change files in the workspace, from its declaration: a tool that names the
 * files it touches, or one that deletes, moves or runs a command, unless this call leaves the
 * workspace alone as Plan mode allows (a shell command the classifier calls read-only, a preview).
 */
export function mayChangeFiles(tool: Tool, input: unknown, facts: CallFacts): boolean {
  const changer =
    tool.touchedPaths !== undefined || ['edit', 'delete', 'move', 'execute'].includes(tool.kind);
  return changer && !tool.planModeAllowed(input, facts);
}
