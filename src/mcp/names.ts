import { createHash } from 'node:crypto';

/** Providers accept tool names of `[A-Za-z0-9_-]`, at most 64 characters. */
export const MAX_TOOL_NAME = 64;
const HASH_LENGTH = 6;

export function sanitizeName(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, '_');
}

function shortHash(text: string): string {
  return createHash('sha1').update(text).digest('hex').slice(0, HASH_LENGTH);
}

/**
 * The pool name of an MCP tool: `server__tool`, sanitised to `[A-Za-z0-9_-]`. A name over 64
 * characters is cut and ends in a short hash of the full name, so two long names that share a
 * prefix stay distinct and the same tool always gets the same name.
 */
export function mcpToolName(server: string, tool: string): string {
  const full = `${sanitizeName(server)}__${sanitizeName(tool)}`;
  if (full.length <= MAX_TOOL_NAME) return full;
  return `${full.slice(0, MAX_TOOL_NAME - HASH_LENGTH - 1)}_${shortHash(`${server}\u0000${tool}`)}`;
}

/**
 * Pool names for one server's tools. Sanitising can make two names equal (`a.b` and `a_b`);
 * the later one (in the server's order) gets a hash suffix instead.
 */
export function uniqueToolNames(server: string, tools: readonly string[], taken: Set<string>): string[] {
  return tools.map((tool) => {
    let name = mcpToolName(server, tool);
    if (taken.has(name)) {
      const suffix = `_${shortHash(`${server}\u0000${tool}`)}`;
      name = `${name.slice(0, MAX_TOOL_NAME - suffix.length)}${suffix}`;
    }
    taken.add(name);
    return name;
  });
}
