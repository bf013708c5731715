import type { ToolName } from '../../config/builtin_tool_names.js';
import type { ToolContext } from '../../tool/types.js';

/**
 * For tools that reach many files (search, glob, listings): whether `tool` may read each one. A
 * file a deny rule closes (`read_file(.env)` closes .env to every tool) is left out of the
 * results. Undefined when no rule closes any path, so nothing needs checking.
 */
export function readableFilter(
  ctx: Pick<ToolContext, 'permissions'>,
  tool: ToolName,
): ((absolute: string) => boolean) | undefined {
  if (ctx.permissions.readDenyPatterns().length === 0) return undefined;
  const seen = new Map<string, boolean>();
  return (absolute) => {
    let readable = seen.get(absolute);
    if (readable === undefined) {
      readable = ctx.permissions.decidePath(tool, 'read', absolute).behavior !== 'deny';
      seen.set(absolute, readable);
    }
    return readable;
  };
}
