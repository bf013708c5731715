import { mergeSettings } from '../../src/config/settings.js';
import type { SettingsLayer } from '../../src/config/types.js';
import { RulePermissionEngine } from '../../src/permission/engine.js';
import type { PermissionDecision, PermissionSubject } from '../../src/permission/types.js';
import { pathRuleTools } from '../../src/tool/kinds.js';
import { commandSubject, isReadOnlyCommand, parseCommandFacts } from '../../src/tools/exec/shell_facts.js';
import { builtinTools } from '../../src/tools/index.js';
import { tempDir } from './runtime_fixtures.js';

export interface CommandEngineOptions {
  yolo?: boolean;
  approve?: string[];
  mode?: 'plan' | 'act';
  workspace?: string;
}

/** A permission engine over a temp workspace (or the one given), with settings layered as given. */
export function commandEngine(layers: SettingsLayer[] = [], extra: CommandEngineOptions = {}) {
  const workspace = extra.workspace ?? tempDir();
  const settings = mergeSettings(layers.map((settings, i) => ({ source: `layer${i}`, settings })));
  const e = new RulePermissionEngine({
    settings,
    workspace,
    documentsRoot: tempDir('lathe-home-'),
    cwd: workspace,
    yolo: extra.yolo,
    approve: extra.approve as never,
    mode: extra.mode,
    pathRuleTools: pathRuleTools(builtinTools()),
  });
  return { e, workspace };
}

/** The subject execute_command states for a command, from the real parser and the tool's own facts. */
export async function commandQuery(
  text: string,
  cwd?: string,
): Promise<{ readOnly: boolean; subject: PermissionSubject }> {
  const facts = { command: await parseCommandFacts(text) };
  const readOnly = isReadOnlyCommand(facts, text);
  return { readOnly, subject: { ...commandSubject(facts, text, cwd), readOnlyCommand: readOnly } };
}

/** What the engine decides for execute_command running `text`. */
export async function decideCommand(e: RulePermissionEngine, text: string): Promise<PermissionDecision> {
  const { readOnly, subject } = await commandQuery(text);
  return e.decide({ tool: 'execute_command', readOnly, subject, strictPlanRefused: false });
}
