import { definitionForModel } from '../../tool/definition.js';
import { latheFacts, type StaticFact, staticFacts } from '../../tool/static_facts.js';
import { countTokens } from '../../tool/token_count.js';
import type { Tool } from '../../tool/types.js';
import { type CommonOptions, connectMcpServers, runtimeFromOptions } from './runtime_from_options.js';

type Shown = boolean | 'dynamic';

interface ToolRow {
  name: string;
  aliases: string[];
  /** The contract's three flags. */
  readOnly: Shown;
  destructive: Shown;
  concurrencySafe: Shown;
  /** lathe's own facts, apart from the flags (docs/tools.md). */
  latheFacts: {
    planModeAllowed: Shown;
    runsInParallel: Shown;
    destroysExisting: Shown;
    refusedInStrictPlan: boolean;
  };
  profiles: string[];
  tokens: number;
}

// A fact that could not be asked is shown as not holding.
const known = (fact: StaticFact): Shown => (fact === 'unknown' ? false : fact);

/** Static facts of a tool for listings; a fact that depends on the input is "dynamic". */
function row(tool: Tool, tokens: number): ToolRow {
  const facts = staticFacts(tool);
  const own = latheFacts(tool);
  return {
    name: tool.name,
    aliases: [...tool.aliases],
    readOnly: known(facts.readOnly),
    destructive: known(facts.destructive),
    concurrencySafe: known(facts.concurrencySafe),
    latheFacts: {
      planModeAllowed: known(own.planModeAllowed),
      runsInParallel: known(own.runsInParallel),
      destroysExisting: known(own.destroysExisting),
      refusedInStrictPlan: own.refusedInStrictPlan,
    },
    profiles: [...tool.availability.profiles],
    tokens,
  };
}

const mark = (value: Shown) => (value === 'dynamic' ? 'dyn' : value ? '✓' : '·');

/** The columns of lathe's own facts: Plan mode allows it, parallel batch, destroys, Strict Plan refuses. */
function ownMarks(r: ToolRow): string {
  const { planModeAllowed, runsInParallel, destroysExisting, refusedInStrictPlan } = r.latheFacts;
  return [mark(planModeAllowed), mark(runsInParallel), mark(destroysExisting), mark(refusedInStrictPlan)]
    .map((f) => f.padEnd(3))
    .join(' ');
}

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
  const lines = [`${'tool'.padEnd(width)}  RO  D   CS  | PM  PB  DX  SP  tokens  profiles`];
  for (const r of rows) {
    const flags = [mark(r.readOnly), mark(r.destructive), mark(r.concurrencySafe)]
      .map((f) => f.padEnd(3))
      .join(' ');
    const aliases = r.aliases.length ? `  (alias ${r.aliases.join(', ')})` : '';
    lines.push(
      `${r.name.padEnd(width)}  ${flags} | ${ownMarks(r)} ${String(r.tokens).padStart(6)}  ${r.profiles.join(',')}${aliases}`,
    );
  }
  const total = rows.reduce((sum, r) => sum + r.tokens, 0);
  lines.push(
    '',
    'RO D CS: readOnly, destructive, concurrencySafe. lathe: PM Plan mode allows it, PB joins parallel batches,',
    'DX destroys what exists, SP refused by Strict Plan Mode (docs/tools.md).',
    `${rows.length} tools, ${total} tokens of definitions (profile ${profile}, mode ${runtime.conditions.mode})`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
