import { definitionForModel } from '../../tool/definition.js';
import { staticFacts } from '../../tool/static_facts.js';
import { countTokens } from '../../tool/token_count.js';
import type { Tool } from '../../tool/types.js';
import { type CommonOptions, connectMcpServers, runtimeFromOptions } from './runtime_from_options.js';

interface ToolRow {
  name: string;
  aliases: string[];
  readOnly: boolean | 'dynamic';
  destructive: boolean | 'dynamic';
  concurrencySafe: boolean | 'dynamic';
  profiles: string[];
  tokens: number;
}

/** Static facts of a tool for listings; a fact that depends on the input is "dynamic". */
function row(tool: Tool, tokens: number): ToolRow {
  const facts = staticFacts(tool);
  // A fact that could not be asked is shown as not holding.
  const known = <T>(fact: T | 'unknown') => (fact === 'unknown' ? false : fact);
  return {
    name: tool.name,
    aliases: [...tool.aliases],
    readOnly: known(facts.readOnly),
    destructive: known(facts.destructive),
    concurrencySafe: known(facts.concurrencySafe),
    profiles: [...tool.availability.profiles],
    tokens,
  };
}

const mark = (value: boolean | 'dynamic') => (value === 'dynamic' ? 'dyn' : value ? '✓' : '·');

export async function toolsCommand(opts: CommonOptions): Promise<number> {
  const runtime = runtimeFromOptions(opts);
  // The pool includes the tools of the configured MCP servers that could be reached.
  const mcp = await connectMcpServers(runtime);
  const profile = runtime.conditions.profile;
  const rows: ToolRow[] = [];
  for (const tool of runtime.pool) {
    rows.push(row(tool, await countTokens(JSON.stringify(definitionForModel(tool, profile)))));
  }
  await mcp?.close();
  if (opts.json) {
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  const width = Math.max(4, ...rows.map((r) => r.name.length));
  const lines = [`${'tool'.padEnd(width)}  RO  D   CS  tokens  profiles`];
  for (const r of rows) {
    const flags = [mark(r.readOnly), mark(r.destructive), mark(r.concurrencySafe)]
      .map((f) => f.padEnd(3))
      .join(' ');
    const aliases = r.aliases.length ? `  (alias ${r.aliases.join(', ')})` : '';
    lines.push(
      `${r.name.padEnd(width)}  ${flags} ${String(r.tokens).padStart(6)}  ${r.profiles.join(',')}${aliases}`,
    );
  }
  const total = rows.reduce((sum, r) => sum + r.tokens, 0);
  lines.push(
    '',
    `${rows.length} tools, ${total} tokens of definitions (profile ${profile}, mode ${runtime.conditions.mode})`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
