import { removeRuleFromFile } from '../../config/settings_rules.js';
import { APPROVAL_CATEGORIES } from '../../config/types.js';
import type { RulePermissionEngine } from '../../permission/engine.js';
import { parseRule } from '../../permission/rules.js';
import type { PermissionRule } from '../../permission/types.js';
import type { Runtime } from '../../runtime/create_runtime.js';
import type { Color, Line } from '../render/style.js';

const GRAY = { color: 'muted' } as const;
const ACTION_COLOR: Record<PermissionRule['action'], Color> = {
  allow: 'success',
  ask: 'warning',
  deny: 'error',
};
export const SESSION_SOURCE = 'this session';

/** A rule as written: `execute_command(npm test)`, `read_file`. */
export const ruleText = (rule: PermissionRule) =>
  rule.pattern === undefined ? rule.tool : `${rule.tool}(${rule.pattern})`;

/** Rules added this session go on in a new runtime that keeps them (another profile, a resumed session). */
export function carrySessionRules(from: RulePermissionEngine, to: RulePermissionEngine): void {
  const lists: Record<PermissionRule['action'], string[]> = { allow: [], ask: [], deny: [] };
  for (const rule of from.rules) if (rule.source === SESSION_SOURCE) lists[rule.action].push(ruleText(rule));
  to.addRules(lists, SESSION_SOURCE);
}

/** The settings files a user may change from the UI: the project's and the user's own. */
export interface SettingsFiles {
  project: string;
  user: string;
}

function sourceName(source: string, files: SettingsFiles): string {
  if (source === files.project) return `project settings (${source})`;
  if (source === files.user) return `user settings (${source})`;
  return source;
}

/** Whether `/permissions remove` can take the rule away: added this session, or in a settings file of the user's. */
function removable(rule: PermissionRule, files: SettingsFiles): boolean {
  return rule.source === SESSION_SOURCE || rule.source === files.project || rule.source === files.user;
}

/** `/permissions`: every rule in effect, numbered, with where it comes from; then the approval settings. */
export function permissionsPanel(runtime: Runtime, files: SettingsFiles): { title: string; lines: Line[] } {
  const rules = runtime.permissions.rules;
  const lines: Line[] = rules.map((rule, index) => [
    { text: `  ${String(index + 1).padStart(2)}. ` },
    { text: rule.action.padEnd(6), style: { color: ACTION_COLOR[rule.action] } },
    { text: `${ruleText(rule)}  ` },
    { text: sourceName(rule.source, files), style: GRAY },
  ]);
  if (rules.length === 0)
    lines.push([{ text: '  No rules: the approval settings below decide.', style: GRAY }]);
  const approvals = APPROVAL_CATEGORIES.map((c) => `${c} ${runtime.settings.approvals[c]}`).join(' · ');
  lines.push(
    [],
    [
      { text: '  Approvals: ', style: { bold: true } },
      { text: approvals, style: GRAY },
    ],
  );
  if (rules.some((rule) => removable(rule, files)))
    lines.push([
      {
        text: '  Remove a rule added this session or saved to your settings with /permissions remove N.',
        style: GRAY,
      },
    ]);
  return { title: `Permission rules (${rules.length})`, lines };
}

/**
 * `/permissions remove N`: takes rule N out of the running session and, when it was saved to the
 * project's or the user's settings, out of that file too (written atomically; a file that does not
 * parse is left alone). Returns what happened, in a line.
 */
export async function removePermissionRule(
  runtime: Runtime,
  files: SettingsFiles,
  which: string,
): Promise<{ text: string; error?: boolean }> {
  const rules = runtime.permissions.rules;
  const index = Number(which) - 1;
  if (!/^\d+$/.test(which) || index < 0 || index >= rules.length)
    return {
      text: `No rule ${which}: /permissions lists them by number (1 to ${rules.length}).`,
      error: true,
    };
  const rule = rules[index];
  if (!removable(rule, files))
    return {
      text: `${ruleText(rule)} comes from ${rule.source}; change it there (only rules added this session or saved to your settings are removed here).`,
      error: true,
    };
  if (rule.source !== SESSION_SOURCE) {
    try {
      const removed = await removeRuleFromFile(rule.source, rule.action, (text) => sameRule(text, rule));
      if (!removed) return { text: `${ruleText(rule)} is no longer in ${rule.source}.`, error: true };
    } catch (error) {
      return { text: (error as Error).message, error: true };
    }
  }
  runtime.permissions.removeRule(rule);
  const where = rule.source === SESSION_SOURCE ? 'this session' : `this session and ${rule.source}`;
  return { text: `Removed ${rule.action} ${ruleText(rule)} from ${where}.` };
}

/** Whether a rule as written in a file is this one (`npm test` and `npm test ` are the same rule). */
function sameRule(text: string, rule: PermissionRule): boolean {
  const parsed = parseRule({ rule: text, action: rule.action, source: rule.source });
  return typeof parsed !== 'string' && parsed.tool === rule.tool && parsed.pattern === rule.pattern;
}
