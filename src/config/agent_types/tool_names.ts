import type { ToolName } from '../builtin_tool_names.js';

/**
 * Other agents' tool names and the lathe tools they stand for. Only clear equivalents are
 * listed; a name that maps to nothing is left out with a warning.
 */
export type ToolTable = Readonly<Record<string, readonly ToolName[]>>;

const EDIT: ToolName[] = ['edit_file', 'replace_in_file'];
const SUBAGENTS: ToolName[] = ['use_subagent', 'use_subagents'];

/** Claude Code's tool names. */
export const CLAUDE_TOOLS: ToolTable = {
  Read: ['read_file'],
  Write: ['write_to_file'],
  Edit: EDIT,
  MultiEdit: EDIT,
  NotebookEdit: ['notebook_edit'],
  NotebookRead: ['read_file'],
  Bash: ['execute_command'],
  KillShell: ['kill_command'],
  KillBash: ['kill_command'],
  Grep: ['search_files'],
  Glob: ['glob'],
  LS: ['list_files'],
  WebFetch: ['web_fetch'],
  WebSearch: ['web_search'],
  TodoWrite: ['change_todo_list'],
  Task: SUBAGENTS,
  Agent: SUBAGENTS,
  TaskOutput: ['task_output'],
  TaskStop: ['task_stop'],
  SendMessage: ['send_message'],
  TeamCreate: ['team_create'],
  TeamDelete: ['team_delete'],
  EnterWorktree: ['enter_worktree'],
  ExitWorktree: ['exit_worktree'],
  ExitPlanMode: ['exit_plan_mode'],
  EnterPlanMode: ['enter_plan_mode'],
  AskUserQuestion: ['ask_followup_question'],
  Skill: ['load_skill'],
  ListMcpResourcesTool: ['list_mcp_resources'],
  ReadMcpResourceTool: ['access_mcp_resource'],
  CronCreate: ['cron_create'],
  CronDelete: ['cron_delete'],
  CronList: ['cron_list'],
};

/** Gemini CLI's tool names. */
export const GEMINI_TOOLS: ToolTable = {
  read_file: ['read_file'],
  read_many_files: ['read_file'],
  write_file: ['write_to_file'],
  replace: EDIT,
  run_shell_command: ['execute_command'],
  grep_search: ['search_files'],
  search_file_content: ['search_files'],
  glob: ['glob'],
  list_directory: ['list_files'],
  web_fetch: ['web_fetch'],
  google_web_search: ['web_search'],
  write_todos: ['change_todo_list'],
  ask_user: ['ask_followup_question'],
  enter_plan_mode: ['enter_plan_mode'],
  exit_plan_mode: ['exit_plan_mode'],
};

/** OpenCode's tool names. */
export const OPENCODE_TOOLS: ToolTable = {
  read: ['read_file'],
  write: ['write_to_file'],
  edit: EDIT,
  patch: ['apply_patch'],
  bash: ['execute_command'],
  grep: ['search_files'],
  glob: ['glob'],
  list: ['list_files'],
  webfetch: ['web_fetch'],
  websearch: ['web_search'],
  todowrite: ['change_todo_list'],
  task: SUBAGENTS,
  skill: ['load_skill'],
  lsp: ['lsp'],
  question: ['ask_followup_question'],
};

/** Every lathe tool that changes files, for "edit: deny" and read-only sandboxes. */
export const EDITING_TOOLS = [
  'write_to_file',
  'replace_in_file',
  'edit_file',
  'apply_patch',
  'replace_text',
  'notebook_edit',
] as const satisfies readonly ToolName[];

export interface MappedTools {
  names: string[];
  /** What could not be carried over, one line each (`tools: "X" maps to no lathe tool: left out`). */
  notes: string[];
}

/**
 * An allow or deny list of another agent's tool names as lathe names. `Bash(git diff:*)`-style
 * entries name a tool with arguments, which a type cannot express: an allow list leaves them out
 * and a deny list denies the whole tool, so neither gives the child more than its file meant.
 * `other` maps names the table does not hold (MCP tools).
 */
export function mapToolNames(
  entries: readonly string[],
  table: ToolTable,
  options: { field: string; deny: boolean; other?: (name: string) => string | undefined },
): MappedTools {
  const names: string[] = [];
  const notes: string[] = [];
  const { field, deny, other } = options;
  for (const entry of entries) {
    const call = /^([^()]+)\((.*)\)$/.exec(entry.trim());
    const name = call ? call[1].trim() : entry.trim();
    const mapped = Object.hasOwn(table, name) ? table[name] : other?.(name) ? [other(name) as string] : [];
    if (mapped.length === 0) {
      notes.push(`${field}: "${entry}" maps to no lathe tool: left out`);
      continue;
    }
    if (call && !deny) {
      notes.push(
        `${field}: "${entry}" limits a tool's arguments, which a type cannot: left out (use permission rules)`,
      );
      continue;
    }
    if (call) notes.push(`${field}: "${entry}" denies all of ${mapped.join(', ')}`);
    for (const tool of mapped) if (!names.includes(tool)) names.push(tool);
  }
  return { names, notes };
}
