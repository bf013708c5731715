// `npm run bench`: every benchmark, one after another, as tables of medians.
import { benchAcp } from './acp.js';
import { benchAgent } from './agent.js';
import { benchAgents } from './agents.js';
import { benchBrowser } from './browser.js';
import { benchCaching } from './caching.js';
import { benchCheckpoints } from './checkpoints.js';
import { benchCheckpointsScale } from './checkpoints_scale.js';
import { benchEdit } from './edit.js';
import { benchExec } from './exec.js';
import { benchHardLinks } from './hard_links.js';
import { benchHeadlessTiming } from './headless_timing.js';
import { benchHooks } from './hooks.js';
import { benchJobSteps } from './job_steps.js';
import { benchJobsOverhead, benchJobsThroughput } from './jobs.js';
import { benchLongRun } from './long_run.js';
import { benchLsp } from './lsp.js';
import { benchLspReferences } from './lsp_references.js';
import { benchLspWork } from './lsp_work.js';
import { benchMcp } from './mcp.js';
import { benchOutline } from './outline.js';
import { benchPromptTokens } from './prompt_tokens.js';
import { benchRules } from './rules.js';
import { benchSandbox } from './sandbox.js';
import { benchSdk } from './sdk.js';
import { benchSearch } from './search.js';
import { benchSearchTree } from './search_tree.js';
import { benchSkills } from './skills.js';
import { benchStartup } from './startup.js';
import { printTable } from './stats.js';
import { benchTui } from './tui.js';
import { benchWeb } from './web.js';

type Rows = Array<Record<string, string | number>>;
const asRows = (rows: Array<{ name: string; medianMs: number; runs: number }>): Rows =>
  rows.map((r) => ({ case: r.name, 'median ms': r.medianMs, runs: r.runs }));

const benches: Array<[string, () => Promise<Rows>]> = [
  ['start-up (built command)', benchStartup],
  [
    'lathe -p: spawn to first model request, last reply to exit (LATHE_BENCH_BASELINE: an earlier build)',
    benchHeadlessTiming,
  ],
  ['search_files and glob vs ripgrep, 50,000 files', benchSearch],
  [
    'glob and search_files (lathe tool, start-up included) vs rg, 200,000 generated files (LATHE_BENCH_TREE_FILES)',
    benchSearchTree,
  ],
  ['edit engines: replace_in_file and apply_patch, 1,000 to 1,000,000 lines', benchEdit],
  ['list_code_definition_names engine (200 TS files)', async () => asRows(await benchOutline())],
  ['agent loop overhead per tool call', benchAgent],
  ['a 500-round task: memory and per-round cost as the context is compacted', benchLongRun],
  ['extensions: a no-op hook per tool call', benchHooks],
  ['subagents: start-up, 4 in parallel, first request size (o200k tokens)', benchAgents],
  ['execute_command overhead and memory', benchExec],
  ['sandbox probe at start and read-deny masks', benchSandbox],
  ['permissions: deny rules and protected paths through hard links, 50,000 files', benchHardLinks],
  ['MCP client: tool-call round trip and 5-server start (server-everything)', benchMcp],
  ['language servers: typescript-language-server on 500 files (the last row is MB, not ms)', benchLsp],
  [
    'language servers: lathe -p work scenario in a TypeScript project, diagnostics after edits on vs off',
    benchLspWork,
  ],
  [
    "language servers: find_references and rename on zod's sources, lathe and the server directly",
    benchLspReferences,
  ],
  ['first request size (o200k tokens)', benchPromptTokens],
  [
    'prompt caching over the work scenario (Claude Sonnet 4.5 prices, fake server token estimate)',
    benchCaching,
  ],
  ['interactive UI: time per frame, memory, start-up', benchTui],
  ['extensions: rules discovery (200 files)', benchRules],
  ['extensions: finding skills at start', benchSkills],
  ['web_fetch: 1 MB local page end to end, and from the cache', benchWeb],
  ['web: the browser (launch to first snapshot, 5,000-node snapshot)', benchBrowser],
  ['SDK: a 10,000-token streamed answer through query() (LATHE_BENCH_BASELINE: an earlier build)', benchSdk],
  ['ACP: lathe acp to the first message chunk, and the updates per tool call', benchAcp],
  [
    'checkpoints: before a command on 20,000 files, one changed; restore of a 100-file change',
    benchCheckpoints,
  ],
  [
    'checkpoints at scale: lathe -p on 20,000 and 100,000 generated files, checkpoints on vs off',
    benchCheckpointsScale,
  ],
  ['jobs: queue overhead per job (local queue and BullMQ on redis-server)', benchJobsOverhead],
  [
    'jobs: work jobs of the fake model by lathe jobs run (LATHE_BENCH_JOBS, LATHE_BENCH_CONCURRENCY)',
    benchJobsThroughput,
  ],
  [
    "jobs: the executor's share per step (LATHE_BENCH_STEP_JOBS, LATHE_BENCH_STEP_CONCURRENCY)",
    benchJobSteps,
  ],
];

const only = process.argv.slice(2);
const failed: string[] = [];
const began = performance.now();
for (const [title, run] of benches) {
  if (only.length > 0 && !only.some((word) => title.includes(word))) continue;
  // A benchmark that fails is reported, and the others still run.
  try {
    printTable(title, await run());
  } catch (error) {
    failed.push(title);
    console.log(
      `\n## ${title}\n\nFAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
  }
}
const minutes = ((performance.now() - began) / 60_000).toFixed(1);
console.log(
  `\n${failed.length === 0 ? 'every benchmark ran to its end' : `${failed.length} failed: ${failed.join('; ')}`} (${minutes} min)`,
);
// A failed benchmark may leave its servers open: the run ends here all the same.
process.exit(failed.length > 0 ? 1 : 0);
