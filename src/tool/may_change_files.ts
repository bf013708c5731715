import { resolve } from 'node:path';
import type { CallFacts } from './facts.js';
import type { ChangeContext, Tool } from './types.js';

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

/**
 * The files a call changes, absolute, when its tool names each of them (the files its permission
 * check judged, else those it declares); undefined when it may change files no declaration names
 * (a command, a change over a glob): then only a snapshot of the whole tree covers it.
 */
export function namedFiles(
  tool: Tool,
  input: unknown,
  ctx: ChangeContext,
  checkedFiles?: readonly string[],
): string[] | undefined {
  if (!tool.touchedPaths) return undefined;
  const named = checkedFiles ?? tool.touchedPaths(input, ctx);
  if (named.some((path) => path.includes('*'))) return undefined;
  return named.map((path) => resolve(ctx.cwd, path));
}
