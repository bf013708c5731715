import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KNOWN_FEATURES } from '../../src/config/features.js';
import { type StaticFact, staticFacts } from '../../src/tool/static_facts.js';
import { builtinTools } from '../../src/tools/index.js';
import { catalogueRows } from '../support/catalogue_table.js';
import { lathe } from '../support/cli.js';
import { MISBEHAVING_SERVER } from '../support/mcp_servers/peers.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

type Flag = true | false | 'dyn';
type Flags = readonly [readOnly: Flag, destructive: Flag, concurrencySafe: Flag];

/**
 * The reference contract's three flags, copied here so that no change to a tool can move them:
 * seed 001's table ("true/false always return that value; dynamic is decided from the input";
 * a value it does not state is buildTool's default, false) for every tool it names, by its class,
 * and the product specification's catalogue for the tools only seed 000 names.
 */
const REFERENCE: Record<string, Flags> = {
  // Seed 001, file operations, search, execution, network.
  read_file: [true, false, true], // FileReadTool
  write_to_file: [false, false, false], // FileWriteTool
  edit_file: [false, false, false], // FileEditTool
  notebook_edit: [false, false, false], // NotebookEditTool
  glob: [true, false, true], // GlobTool
  search_files: [true, false, true], // GrepTool
  tool_search: [false, false, false], // ToolSearchTool
  execute_command: ['dyn', false, 'dyn'], // BashTool, PowerShellTool
  web_fetch: [true, false, true], // WebFetchTool
  web_search: [true, false, true], // WebSearchTool
  // Seed 001, agents, tasks, plan, worktrees, schedules.
  use_subagent: [false, false, false], // AgentTool
  use_subagents: [false, false, false], // AgentTool
  send_message: ['dyn', false, false], // SendMessageTool
  team_create: [false, false, false], // TeamCreateTool
  team_delete: [false, false, false], // TeamDeleteTool
  task_create: [false, false, false], // TaskCreateTool
  task_get: [true, false, true], // TaskGetTool
  task_update: [false, false, false], // TaskUpdateTool
  task_list: [true, false, true], // TaskListTool
  task_output: ['dyn', false, 'dyn'], // TaskOutputTool
  task_stop: [false, false, true], // TaskStopTool
  enter_plan_mode: [true, false, true], // EnterPlanModeTool
  exit_plan_mode: [true, false, true], // ExitPlanModeV2Tool
  enter_worktree: [false, false, false], // EnterWorktreeTool
  exit_worktree: [false, false, false], // ExitWorktreeTool
  cron_create: [false, false, false], // CronCreateTool
  cron_delete: [false, false, false], // CronDeleteTool
  cron_list: [true, false, true], // CronListTool
  remote_trigger: ['dyn', false, false], // RemoteTriggerTool
  // Seed 001, interaction, MCP, the rest.
  ask_followup_question: [true, false, true], // AskUserQuestionTool
  load_skill: [false, false, false], // SkillTool
  config: ['dyn', false, false], // ConfigTool
  list_mcp_resources: [true, false, true], // ListMcpResourcesTool
  access_mcp_resource: [true, false, true], // ReadMcpResourceTool
  change_todo_list: [false, false, false], // TodoWriteTool
  brief: [false, false, true], // BriefTool
  lsp: [true, false, true], // LSPTool
  sleep: [false, false, false], // SleepTool
  structured_output: [true, false, true], // SyntheticOutputTool
  snip: [false, false, false], // SnipTool
  monitor: [false, false, false], // MonitorTool
  run_workflow: [false, false, false], // WorkflowTool
  list_peers: [false, false, false], // ListPeersTool
  repl: [false, false, false], // REPLTool
  suggest_background_pr: [false, false, false], // SuggestBackgroundPRTool
  browser_action: [false, false, false], // WebBrowserTool
  send_user_file: [false, false, false], // SendUserFileTool
  push_notification: [false, false, false], // PushNotificationTool
  subscribe_pr: [false, false, false], // SubscribePRTool
  ctx_inspect: [false, false, false], // CtxInspectTool
  terminal_capture: [false, false, false], // TerminalCaptureTool
  verify_plan_execution: [false, false, false], // VerifyPlanExecutionTool
  overflow_test: [false, false, false], // OverflowTestTool
  testing_permission: [true, false, true], // TestingPermissionTool
  // Only seed 000 names these: the product specification's catalogue.
  replace_in_file: [false, false, false],
  apply_patch: [false, false, false],
  replace_text: [false, false, false],
  list_files: [true, false, true],
  list_code_definition_names: [true, false, true],
  find_references: [true, false, true],
  rename: [false, false, false],
  kill_command: [false, true, false],
  generate_image: [false, false, false],
  qna_respond: [true, false, false],
  make_plan: [true, false, false],
  working_respond: [true, false, false],
  phase_report: [true, false, false],
  generate_report: [true, false, false],
  attempt_completion: [true, false, false],
  load_workflow: [true, false, false],
  load_mcp: [true, false, true],
  use_mcp_tool: [false, false, false],
  load_mcp_documentation: [true, false, true],
  spawn_task: [false, false, false],
  // The rule-creation tool of /newrule: the specification names it, without flags (the defaults).
  new_rule: [false, false, false],
};

/** Seed 000's tools marked Lite: all that the lite profile offers, with generate_image (no profile). */
const LITE = [
  'ask_followup_question',
  'attempt_completion',
  'execute_command',
  'generate_image',
  'generate_report',
  'kill_command',
  'list_code_definition_names',
  'list_files',
  'make_plan',
  'phase_report',
  'qna_respond',
  'read_file',
  'replace_in_file',
  'search_files',
  'working_respond',
  'write_to_file',
];

const asFlag = (fact: StaticFact | boolean): Flag => (fact === 'dynamic' ? 'dyn' : fact === true);
const flagsOf = (row: { readOnly: StaticFact; destructive: StaticFact; concurrencySafe: StaticFact }) =>
  [asFlag(row.readOnly), asFlag(row.destructive), asFlag(row.concurrencySafe)] as const;

describe('the three flags are the reference contract’s', () => {
  it('for every built-in tool, and the copy names exactly the built-ins', () => {
    const tools = builtinTools();
    expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(REFERENCE).sort());
    for (const tool of tools) expect(flagsOf(staticFacts(tool)), tool.name).toEqual(REFERENCE[tool.name]);
  });

  it('in every row of docs/tools.md', () => {
    for (const row of catalogueRows()) expect(flagsOf(row), row.name).toEqual(REFERENCE[row.name]);
  });
});

/** A workspace and settings under which the pool holds nearly every tool: a skill, a workflow, a script, an MCP server, an image model. */
function everything(): { cwd: string; home: string } {
  const cwd = writeTree({
    '.agents/skills/demo/SKILL.md': '---\nname: demo\ndescription: A demo skill.\n---\nDo the demo.\n',
    '.agents/workflows/release.md': '# Release\n\n1. Tag it.\n',
    '.agents/workflows/build.mjs': 'console.log("built");\n',
  });
  const home = tempDir('lathe-home-');
  mkdirSync(join(home, 'settings'), { recursive: true });
  writeFileSync(
    join(home, 'settings', 'settings.json'),
    JSON.stringify({ images: { model: 'openai/gpt-image-1' } }),
  );
  writeFileSync(
    join(home, 'settings', 'mcp_settings.json'),
    JSON.stringify({ mcpServers: { probe: { command: process.execPath, args: [MISBEHAVING_SERVER] } } }),
  );
  return { cwd, home };
}

interface JsonRow {
  name: string;
  readOnly: StaticFact;
  destructive: StaticFact;
  concurrencySafe: StaticFact;
}

function toolsJson(args: string[], place: { cwd: string; home: string }): JsonRow[] {
  const env = { LATHE_HOME: place.home, LATHE_FEATURES: '', NODE_ENV: 'test' };
  const r = lathe(['tools', '--json', '--trust', '--cwd', place.cwd, ...args], { env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe('lathe tools --json', () => {
  const place = everything();
  // Coordinator mode would leave the lead its four tools only.
  const features = KNOWN_FEATURES.filter((f) => f !== 'coordinator').flatMap((f) => ['--feature', f]);

  it('gives the reference contract’s flags in every row of a pool with every feature, in Act and Plan mode', () => {
    const rows = [...toolsJson(features, place), ...toolsJson([...features, '--mode', 'plan'], place)];
    const builtin = rows.filter((row) => !row.name.includes('__'));
    for (const row of builtin) expect(flagsOf(row), row.name).toEqual(REFERENCE[row.name]);
    // Only structured_output (a --json-schema run's) and the language-server tools may be missing.
    const listed = new Set(builtin.map((row) => row.name));
    const missing = Object.keys(REFERENCE).filter((name) => !listed.has(name));
    expect(
      missing.filter((name) => !['structured_output', 'find_references', 'rename'].includes(name)),
    ).toEqual([]);
  });

  it('offers in the lite profile only seed 000’s Lite tools, whatever features are on', () => {
    const rows = toolsJson([...features, '--profile', 'lite'], place);
    const names = rows
      .map((row) => row.name)
      .filter((name) => !name.includes('__') && !/_test$|^testing_/.test(name));
    expect(names.sort()).toEqual(LITE);
    for (const row of rows.filter((r) => !r.name.includes('__')))
      expect(flagsOf(row), row.name).toEqual(REFERENCE[row.name]);
  });

  it('offers in the simple profile only execute_command, read_file and edit_file, whatever features are on', () => {
    const rows = toolsJson([...features, '--profile', 'simple'], place);
    const names = rows.map((row) => row.name).filter((name) => !/_test$|^testing_/.test(name));
    expect(names).toEqual(['edit_file', 'execute_command', 'read_file']);
  });
});
