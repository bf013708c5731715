import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import type { SearchableTool } from '../../tool/context/deferred_tools.js';
import { touchesNothing } from '../../tool/declared_subject.js';
import { deferredLine } from '../../tool/deferred.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import type { Tool } from '../../tool/types.js';

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
function score(tool: SearchableTool, terms: string[], required: string[]): number {
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
export function searchTools<T extends SearchableTool>(tools: readonly T[], query: string, max: number): T[] {
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
      .filter((t): t is T => t !== undefined);
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
    'Load deferred tools, listed below by name, so they can be called: by keyword, or by name with ' +
    '"select:name1,name2". What it finds is loaded for the rest of the session: call it from your next message.',
  // Offered while some tool is deferred (`withDeferredToolNames`).
  availability: { profiles: ['standard'] },
  kind: 'search',
  // Touches only the pool's own tool list: nothing the permission engine judges.
  permissionSubject: touchesNothing,
  example: { input: { query: 'notebook' } },
  userFacingName: () => 'Tool search',
  // lathe's own fact: loading tools into the pool changes only lathe's own state, so Plan mode lets it run.
  planModeAllowed: true,
  call: async (input, ctx) => {
    const all: SearchableTool[] = [
      ...(ctx.deferredTools?.builtins() ?? []),
      ...(ctx.mcp?.servers().flatMap((s) => s.tools) ?? []),
    ];
    const found = searchTools(all, input.query, input.max_results ?? DEFAULT_RESULTS);
    if (found.length === 0) {
      const names = all.filter((t) => t.deferred).map((t) => t.name);
      return {
        text: `No tool matches "${input.query}".${names.length > 0 ? ` Deferred tools: ${names.join(', ')}.` : ''}`,
      };
    }
    const asked = found.map((t) => t.name);
    const loaded = new Set([...(ctx.deferredTools?.load(asked) ?? []), ...(ctx.mcp?.loadTools(asked) ?? [])]);
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
    return { text: `${sections.join('\n\n')}\n\n${note}`, data: { tools: asked } };
  },
});

/**
 * tool_search's definition lists what it can load: each held-back built-in with its first
 * sentence, then the deferred MCP tools by name. With nothing deferred there is nothing to load,
 * and it is left out of the pool.
 */
export function withDeferredToolNames(
  pool: Tool[],
  mcpDeferred: readonly string[],
  builtins: readonly Tool[],
): Tool[] {
  if (mcpDeferred.length === 0 && builtins.length === 0)
    return pool.filter((tool) => tool.name !== toolSearch.name);
  const lines = builtins.map(deferredLine);
  if (mcpDeferred.length > 0) lines.push(`MCP tools: ${mcpDeferred.join(', ')}`);
  return pool.map((tool) =>
    tool.name === toolSearch.name
      ? { ...tool, description: `${tool.description}\n\nDeferred tools:\n${lines.join('\n')}` }
      : tool,
  );
}
