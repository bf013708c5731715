// merged with permission/grants.ts
import { CLAUDE_TOOLS } from '../config/agent_types/tool_names.js';
import type { RulePermissionEngine } from './engine.js';

/**
 * A command file's `allowed-tools` as lathe rules: Claude Code's names (`Bash(git add:*)`) become
 * the lathe tools they stand for (`execute_command(git add:*)`); lathe rules stay as they are.
 */
export function allowRulesFor(tools: readonly string[]): string[] {
  return tools.flatMap((entry) => {
    const call = /^\s*([^()\s]+)\s*(\(.*\))?\s*$/.exec(entry);
    if (!call) return [entry];
    const mapped = Object.hasOwn(CLAUDE_TOOLS, call[1]) ? CLAUDE_TOOLS[call[1]] : [call[1]];
    return mapped.map((tool) => `${tool}${call[2] ?? ''}`);
  });
}

/**
 * Pre-approves `tools` (allow rules from `source`) until the returned function is called, which
 * takes exactly these rules out again (a rule that does not parse is left out).
 */
export function grantTools(
  engine: Pick<RulePermissionEngine, 'addRules' | 'rules' | 'removeRule'>,
  tools: readonly string[],
  source: string,
): () => void {
  const before = new Set(engine.rules);
  engine.addRules({ allow: allowRulesFor(tools) }, source);
  const added = engine.rules.filter((rule) => !before.has(rule));
  return () => {
    for (const rule of added) engine.removeRule(rule);
  };
}
