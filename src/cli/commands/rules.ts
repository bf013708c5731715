import { loadSettings } from '../../config/load.js';
import { describeRuleState, RuleSet } from '../../config/rules/index.js';
import { isFolderTrusted } from '../../config/trust.js';
import { runtimePlaces } from '../../runtime/configuration.js';

export interface RulesOptions {
  cwd?: string;
  json?: boolean;
}

/**
 * `lathe rules list [--json]`: every rule file a session here reads, in prompt order, with
 * whether it joins the system prompt at the start and why (always, waiting for a file that
 * matches its globs, disabled in settings). Files that cannot be used go to stderr as warnings.
 */
export function rulesCommand(opts: RulesOptions): number {
  const { workspace, documentsRoot } = runtimePlaces({ cwd: opts.cwd });
  const workspaceTrusted = isFolderTrusted(documentsRoot, workspace);
  const { disabledRules } = loadSettings({ documentsRoot, workspace, workspaceTrusted });
  const rules = new RuleSet({ workspace, documentsRoot }, disabledRules);
  for (const warning of rules.warnings) process.stderr.write(`lathe: warning: ${warning}\n`);
  const statuses = rules.statuses();
  if (opts.json) {
    const rows = statuses.map(({ rule, state, active }) => ({
      name: rule.name,
      path: rule.path,
      place: rule.place,
      ...(rule.paths ? { paths: rule.paths } : {}),
      active,
      state: state.kind,
      why: describeRuleState(state),
    }));
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  const width = Math.max(0, ...statuses.map((s) => s.rule.name.length));
  const lines = statuses.map(
    ({ rule, state, active }) =>
      `${active ? 'on ' : 'off'}  ${rule.name.padEnd(width)}  ${describeRuleState(state)}`,
  );
  const active = statuses.filter((s) => s.active).length;
  lines.push(
    ...(lines.length > 0 ? [''] : []),
    `${statuses.length} rule file${statuses.length === 1 ? '' : 's'}, ${active} in the prompt at start`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
