// `npm run bench`: every benchmark, one after another, as tables of medians.
import { benchAgent } from './agent.js';
import { benchApplyPatch } from './edit_patch.js';
import { benchReplaceInFile } from './edit_replace.js';
import { benchOutline } from './outline.js';
import { benchSearch } from './search.js';
import { benchStartup } from './startup.js';
import { printTable } from './stats.js';

type Rows = Array<Record<string, string | number>>;
const asRows = (rows: Array<{ name: string; medianMs: number; runs: number }>): Rows =>
  rows.map((r) => ({ case: r.name, 'median ms': r.medianMs, runs: r.runs }));

const benches: Array<[string, () => Promise<Rows>]> = [
  ['start-up (built command)', benchStartup],
  ['search_files and glob vs ripgrep, 50,000 files', benchSearch],
  ['replace_in_file engine', async () => asRows(await benchReplaceInFile())],
  ['apply_patch engine', async () => asRows(await benchApplyPatch())],
  ['list_code_definition_names engine (200 TS files)', async () => asRows(await benchOutline())],
  ['agent loop overhead per tool call', benchAgent],
];

const only = process.argv.slice(2);
for (const [title, run] of benches) {
  if (only.length > 0 && !only.some((word) => title.includes(word))) continue;
  printTable(title, await run());
}
