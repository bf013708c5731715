import type { ToolName } from '../config/builtin_tool_names.js';
import type { Tool } from '../tool/types.js';

/** Claude Code's tool names and the lathe tools they stand for, so copied matchers keep working. */
const CLAUDE_NAMES: Record<string, string[]> = {
  execute_command: ['Bash'],
  kill_command: ['KillShell'],
  read_file: ['Read'],
  write_to_file: ['Write'],
  edit_file: ['Edit', 'MultiEdit'],
  replace_in_file: ['Edit', 'MultiEdit'],
  replace_text: ['Edit', 'MultiEdit'],
  apply_patch: ['Edit', 'MultiEdit'],
  notebook_edit: ['NotebookEdit'],
  glob: ['Glob'],
  search_files: ['Grep'],
  list_files: ['LS'],
  use_subagent: ['Task'],
  use_subagents: ['Task'],
  change_todo_list: ['TodoWrite'],
};

/**
 * The names a matcher is tried against for one call: the tool's name and aliases, Claude Code's
 * name for it, and for an MCP tool both `server__tool` and `mcp__server__tool` — also when it is
 * called through use_mcp_tool.
 */
export function matchNames(tool: Tool, input: unknown): string[] {
  const names = [tool.name, ...tool.aliases, ...(CLAUDE_NAMES[tool.name] ?? [])];
  if (tool.source === 'external') names.push(`mcp__${tool.name}`);
  if (tool.name === ('use_mcp_tool' satisfies ToolName) && typeof input === 'object' && input !== null) {
    const { server_name: server, tool_name: name } = input as Record<string, unknown>;
    if (typeof server === 'string' && typeof name === 'string')
      names.push(`${server}__${name}`, `mcp__${server}__${name}`);
  }
  return names;
}
