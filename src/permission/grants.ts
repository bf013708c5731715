import type { PermissionRule, RuleLists } from './types.js';

/** What granting needs of a permission engine: adding rules and taking exactly those out again. */
export interface GrantingEngine {
  readonly rules: readonly PermissionRule[];
  addRules(rules: RuleLists, source: string): string[];
  removeRule(rule: PermissionRule): boolean;
}

/**
 * Pre-approves `tools` (permission rules as settings write them: `read_file`,
 * `execute_command(git diff:*)`) as allow rules from `source`, until the returned function is
 * called; calling it again does nothing. Deny rules, protected paths and Plan mode still hold,
 * as for any allow rule. A rule that does not parse is left out and told to `onProblem`.
 */
export function grantTools(
  engine: GrantingEngine,
  tools: readonly string[],
  source: string,
  onProblem?: (problem: string) => void,
): () => void {
  const before = new Set(engine.rules);
  for (const problem of engine.addRules({ allow: tools }, source)) onProblem?.(problem);
  const added = engine.rules.filter((rule) => !before.has(rule));
  return () => {
    for (const rule of added.splice(0)) engine.removeRule(rule);
  };
}
