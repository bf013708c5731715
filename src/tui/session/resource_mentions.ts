import type { McpAccess } from '../../tool/context/mcp.js';

/** `@server:uri` for a configured MCP server: `@docs:file:///guide.md`. */
const MENTION = /(?:^|\s)@([A-Za-z0-9_-]+):(\S+)/g;

/**
 * The resources a prompt mentions as `@server:uri`, read from their servers: their contents
 * follow the prompt as a mentioned file's do. A mention of no configured server is left as text.
 */
export async function attachResources(
  prompt: string,
  mcp: McpAccess | undefined,
  signal: AbortSignal,
): Promise<{ blocks: string[]; attached: string[]; skipped: string[] }> {
  const found = { blocks: [] as string[], attached: [] as string[], skipped: [] as string[] };
  if (!mcp) return found;
  const servers = new Set(mcp.servers().map((s) => s.name));
  const seen = new Set<string>();
  for (const [, server, written] of prompt.matchAll(MENTION)) {
    const uri = written.replace(/[.,;!?)]+$/, '');
    const key = `${server}:${uri}`;
    if (!servers.has(server) || seen.has(key)) continue;
    seen.add(key);
    const read = await mcp.readResource(server, uri, signal);
    if (read.isError) {
      found.skipped.push(`${key} (${read.text})`);
      continue;
    }
    found.blocks.push(
      `<resource server="${server}" uri="${uri}">\n${read.text.replace(/\s+$/, '')}\n</resource>`,
    );
    found.attached.push(key);
  }
  return found;
}

/** The prompt with its files attached (`withFiles`) and the resources' blocks after them. */
export function withResources(withFiles: string, prompt: string, blocks: readonly string[]): string {
  if (blocks.length === 0) return withFiles;
  const joined = blocks.join('\n\n');
  return withFiles === prompt ? `${prompt}\n\nAttached:\n${joined}` : `${withFiles}\n\n${joined}`;
}
