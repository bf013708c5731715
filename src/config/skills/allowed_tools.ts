import { CLAUDE_TOOLS } from '../agent_types/tool_names.js';

export interface AllowedTools {
  /** Permission rules, as settings write them: `execute_command(git diff:*)`, `read_file`. */
  rules: string[];
  /** What could not be carried over, one line each, without the file. */
  problems: string[];
}

/**
 * Splits `allowed-tools` text into entries: the Agent Skills format separates them with spaces
 * (`Bash(git:*) Read`), Claude Code with commas (`Read, Grep`); a pattern in parentheses may hold
 * either (`Bash(git add:*)`).
 */
export function splitToolList(text: string): string[] {
  const entries: string[] = [];
  let current = '';
  let depth = 0;
  for (const c of text) {
    if (c === '(') depth++;
    if (c === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && (c === ',' || /\s/.test(c))) {
      if (current) entries.push(current);
      current = '';
    } else current += c;
  }
  if (current) entries.push(current);
  return entries;
}

/**
 * A skill's `allowed-tools` as lathe permission rules. Claude Code's names map to lathe's
 * (`Bash(git add:*)` → `execute_command(git add:*)`, `Edit` → `edit_file` and `replace_in_file`),
 * `mcp__server__tool` to lathe's `server__tool`; lathe's own names stay as they are. A name that
 * stands for no tool is left out with a problem line.
 */
export function allowedToolRules(value: unknown, isTool?: (name: string) => boolean): AllowedTools {
  const rules: string[] = [];
  const problems: string[] = [];
  const entries =
    typeof value === 'string'
      ? splitToolList(value)
      : Array.isArray(value) && value.every((item) => typeof item === 'string')
        ? value.flatMap((item: string) => splitToolList(item))
        : undefined;
  if (!entries) {
    problems.push('allowed-tools must be a list of tool names: ignored');
    return { rules, problems };
  }
  for (const entry of entries) {
    const call = /^([^()]+)\(([\s\S]*)\)$/.exec(entry);
    const name = (call ? call[1] : entry).trim();
    const mcp = /^mcp__(.+)$/.exec(name);
    const names = Object.hasOwn(CLAUDE_TOOLS, name)
      ? CLAUDE_TOOLS[name]
      : mcp
        ? [mcp[1]]
        : !isTool || isTool(name) || name.includes('__')
          ? [name]
          : [];
    if (names.length === 0) {
      problems.push(`allowed-tools "${entry}" names no lathe tool: left out`);
      continue;
    }
    if (call && call[2].trim() === '') {
      problems.push(`allowed-tools "${entry}" has an empty pattern: left out`);
      continue;
    }
    for (const tool of names) {
      const rule = call ? `${tool}(${call[2].trim()})` : tool;
      if (!rules.includes(rule)) rules.push(rule);
    }
  }
  return { rules, problems };
}
