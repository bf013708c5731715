import { describeRuleState, type RuleSet } from '../../config/rules/index.js';
import type { Line } from '../render/style.js';

/**
 * `/rules`: every rule file in prompt order, marked in the prompt (green) or not, with why —
 * always, matched by a file the session read, waiting for its globs, disabled, a repeat of
 * AGENTS.md — then the files that could not be used.
 */
export function rulesPanel(rules: RuleSet): { title: string; lines: Line[] } {
  const statuses = rules.statuses();
  const warnings = rules.warnings;
  if (statuses.length === 0 && warnings.length === 0) {
    return {
      title:
        'No rule files here (.agents/rules/*.md, ~/.lathe/rules/*.md, CLAUDE.md, GEMINI.md, .clinerules, .cursorrules, .windsurfrules).',
      lines: [],
    };
  }
  const width = Math.max(...statuses.map((s) => s.rule.name.length), 0);
  const lines: Line[] = statuses.map(({ rule, state, active }) => [
    { text: active ? '  ● ' : '  ○ ', style: { color: active ? 'success' : 'muted' } },
    { text: `${rule.name.padEnd(width)}  ` },
    { text: describeRuleState(state), style: { color: 'muted' } },
  ]);
  for (const warning of warnings) lines.push([{ text: `  ${warning}`, style: { color: 'warning' } }]);
  const active = statuses.filter((s) => s.active).length;
  return {
    title: `Rules (${active} of ${statuses.length} in the prompt; turn one off with "rules": {"disabled": [name]} in settings)`,
    lines,
  };
}
