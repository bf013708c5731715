import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import type { McpToolSummary } from '../../tool/context/mcp.js';
import { touchesNothing } from '../../tool/declared_subject.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import type { Tool } from '../../tool/types.js';
import { withMcp } from './shared.js';

const DEFAULT_RESULTS = 5;

const inputSchema = lazySchema(() =>
  z.strictObject({
    query: z
      .string()
      .min(1)
      .describe(
        'Keywords to search tool names and descriptions ("+word" must match), or "select:name1,name2" to load tools by name',
      ),
    max_results: z
      .number()
      .int()
      .min(1)
      .max(50)
      .optional()
      .describe(`How many tools at most (default ${DEFAULT_RESULTS})`),
  }),
);

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** Name hits weigh more than description hits; a whole name part more than a piece of one. */
function score(tool: McpToolSummary, terms: string[], required: string[]): number {
  const nameParts = new Set(words(tool.name));
  const name = tool.name.toLowerCase();
  const description = tool.description.toLowerCase();
  const hit = (term: string) => name.includes(term) || description.includes(term);
  if (!required.every(hit)) return 0;
  let total = 0;
  for (const term of [...terms, ...required]) {
    if (nameParts.has(term)) total += 5;
    else if (name.includes(term)) total += 3;
    if (description.includes(term)) total += 1;
  }
  return total;
}

/** Finds tools for a query: `select:a,b` by exact name, otherwise by keyword score. */
export function searchTools(tools: readonly McpToolSummary[], query: string, max: number): McpToolSummary[] {
  const trimmed = query.trim();
  if (trimmed.toLowerCase().startsWith('select:')) {
    const names = trimmed
      .slice('select:'.length)
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean);
    return names
      .map(
        (n) => tools.find((t) => t.name === n) ?? tools.find((t) => t.name.toLowerCase() === n.toLowerCase()),
      )
      .filter((t): t is McpToolSummary => t !== undefined);
  }
  const tokens = trimmed.split(/\s+/);
  const required = tokens.filter((t) => t.startsWith('+')).flatMap((t) => words(t.slice(1)));
  const terms = tokens.filter((t) => !t.startsWith('+')).flatMap(words);
  return tools
    .map((tool) => ({ tool, score: score(tool, terms, required) }))
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || (a.tool.name < b.tool.name ? -1 : 1))
    .slice(0, max)
    .map((s) => s.tool);
}

export const toolSearch = buildTool({
  name: 'tool_search',
  inputSchema,
  description:
    'Find deferred tools (tools of MCP servers whose definitions are not loaded yet) by keyword, or load ' +
    'named ones with "select:name1,name2". Found tools are loaded for the rest of the session: call ' +
    'them directly from your next message. Their names are listed below when there are any.',
  availability: { profiles: ['standard'], feature: 'tool_search', requires: ['mcp'] },
  kind: 'search',
  // Touches only the pool's own tool list: nothing the permission engine judges.
  permissionSubject: touchesNothing,
  example: { input: { query: 'issues' } },
  userFacingName: () => 'Tool search',
  // lathe's own fact: loading tools into the pool changes only lathe's own state, so Plan mode lets it run.
  planModeAllowed: true,
  call: (input, ctx) =>
    withMcp(ctx, async (mcp) => {
      const all = mcp.servers().flatMap((s) => s.tools);
      const found = searchTools(all, input.query, input.max_results ?? DEFAULT_RESULTS);
      if (found.length === 0) {
        const names = all.filter((t) => t.deferred).map((t) => t.name);
        return {
          text: `No tool matches "${input.query}".${names.length > 0 ? ` Deferred tools: ${names.join(', ')}.` : ''}`,
        };
      }
      const loaded = new Set(mcp.loadTools(found.map((t) => t.name)));
      const sections = found.map((t) =>
        [
          `## ${t.name}${loaded.has(t.name) ? ' (loaded)' : ''}`,
          t.description.trim() || '(no description)',
          `Input schema: ${JSON.stringify(t.inputSchema)}`,
        ].join('\n'),
      );
      const note =
        loaded.size > 0
          ? `Loaded ${loaded.size} tool${loaded.size > 1 ? 's' : ''}: call ${loaded.size > 1 ? 'them' : 'it'} by name from your next message.`
          : 'These tools were already loaded.';
      return { text: `${sections.join('\n\n')}\n\n${note}`, data: { tools: found.map((t) => t.name) } };
    }),
});

/**
 * tool_search's definition names the deferred tools, so the model knows what it can load; with
 * nothing deferred there is nothing to search, and it is left out of the pool.
 */
export function withDeferredToolNames(pool: Tool[], deferred: readonly string[]): Tool[] {
  if (deferred.length === 0) return pool.filter((tool) => tool.name !== toolSearch.name);
  return pool.map((tool) =>
    tool.name === toolSearch.name
      ? { ...tool, description: `${tool.description}\n\nDeferred tools: ${deferred.join(', ')}` }
      : tool,
  );
}
