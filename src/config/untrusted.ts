import type { AgentLimits } from './agent_limits.js';
import { type FeatureLayer, resolveFeatures } from './features.js';
import type { ApprovalCategory, Mode, RuleAction, SettingsLayer } from './types.js';

/** What the layers before an untrusted one decided, to tell tightening from loosening. */
export interface SettingsSoFar {
  approvals: Record<ApprovalCategory, RuleAction>;
  sandbox: { mode: 'read-only' | 'workspace-write' | 'off'; network: boolean };
  mode: Mode;
  strictPlanMode: boolean;
  featureLayers: FeatureLayer[];
  agents?: AgentLimits;
}

const ACTION_STRICTNESS: Record<RuleAction, number> = { allow: 0, ask: 1, deny: 2 };
const SANDBOX_STRICTNESS = { off: 0, 'workspace-write': 1, 'read-only': 2 } as const;

/**
 * Keys an untrusted folder may never set, whatever their value: hooks run commands, `browser`
 * names a program to run and a profile to open, `images` where prompts are sent (and paid for),
 * `github` the secret that lets webhook deliveries into the session.
 */
const NEVER_UNTRUSTED = ['hooks', 'browser', 'images', 'github'];

/**
 * The part of an untrusted folder's settings that may apply: what only tightens — deny and ask
 * rules, stricter approvals, a stricter sandbox, no network, Plan mode, features switched off —
 * and the keys that change nothing about safety (model, profile, contextWindow). Everything
 * else is dropped and named in `ignored`, for the line that tells the user.
 */
export function tightenOnly(
  layer: SettingsLayer,
  current: SettingsSoFar,
): { layer: SettingsLayer; ignored: string[] } {
  const kept: SettingsLayer = { ...layer };
  const ignored: string[] = [];
  const allow = layer.permissions?.allow;
  if (layer.permissions) {
    kept.permissions = { ...layer.permissions };
    delete kept.permissions.allow;
    if (allow && allow.length > 0)
      ignored.push(allow.length === 1 ? `the allow rule ${allow[0]}` : `${allow.length} allow rules`);
  }
  if (layer.approvals) {
    kept.approvals = {};
    for (const [category, action] of Object.entries(layer.approvals) as Array<
      [ApprovalCategory, RuleAction]
    >) {
      if (ACTION_STRICTNESS[action] >= ACTION_STRICTNESS[current.approvals[category]])
        kept.approvals[category] = action;
      else ignored.push(`approvals.${category}=${action}`);
    }
  }
  if (layer.sandbox) {
    kept.sandbox = { ...layer.sandbox };
    const { mode, network } = layer.sandbox;
    if (mode !== undefined && SANDBOX_STRICTNESS[mode] < SANDBOX_STRICTNESS[current.sandbox.mode]) {
      delete kept.sandbox.mode;
      ignored.push(`sandbox.mode=${mode}`);
    }
    if (network === true && !current.sandbox.network) {
      delete kept.sandbox.network;
      ignored.push('sandbox.network=true');
    }
  }
  if (layer.mode === 'act' && current.mode === 'plan') {
    delete kept.mode;
    ignored.push('mode=act');
  }
  if (layer.strictPlanMode === false && current.strictPlanMode) {
    delete kept.strictPlanMode;
    ignored.push('strictPlanMode=false');
  }
  if (layer.features !== undefined) {
    const on = resolveFeatures({ settingsLayers: current.featureLayers });
    const turnsOn = (name: string) => !on.has(name);
    if (Array.isArray(layer.features)) {
      const added = layer.features.filter((f) => !f.startsWith('-') && turnsOn(f.replace(/^\+/, '')));
      kept.features = layer.features.filter((f) => !added.includes(f));
      if (added.length > 0) ignored.push(`features ${added.join(', ')}`);
    } else {
      const added = Object.entries(layer.features)
        .filter(([name, value]) => value && turnsOn(name))
        .map(([name]) => name);
      kept.features = Object.fromEntries(
        Object.entries(layer.features).filter(([name]) => !added.includes(name)),
      );
      if (added.length > 0) ignored.push(`features ${added.join(', ')}`);
    }
  }
  if (layer.agents !== undefined && current.agents) {
    const raised = raisedAgentLimits(layer.agents, current.agents);
    if (raised.length > 0) {
      delete kept.agents;
      ignored.push(...raised);
    }
  }
  // Reaching private addresses, or sending queries to another search server, loosens.
  if (layer.web?.allow !== undefined || layer.web?.search !== undefined) {
    kept.web = { ...layer.web };
    if (layer.web.allow !== undefined) ignored.push('web.allow');
    if (layer.web.search !== undefined) ignored.push('web.search');
    delete kept.web.allow;
    delete kept.web.search;
  }
  // Language servers are commands lathe starts: an untrusted folder may not name them.
  if (layer.lsp?.servers !== undefined) {
    kept.lsp = { ...layer.lsp };
    delete kept.lsp.servers;
    ignored.push('lsp.servers');
  }
  for (const key of NEVER_UNTRUSTED) {
    if (layer[key] !== undefined) {
      delete kept[key];
      ignored.push(key);
    }
  }
  return { layer: kept, ignored };
}

/** The `agents` limits a layer would raise (more children, deeper, more spending): only lowering applies. */
function raisedAgentLimits(agents: NonNullable<SettingsLayer['agents']>, current: AgentLimits): string[] {
  const seconds = (ms: number) => ms / 1000;
  const pairs: Array<[string, unknown, number]> = [
    ['concurrency', agents.concurrency, current.concurrency],
    ['maxDepth', agents.maxDepth, current.maxDepth],
    ['maxTurns', agents.maxTurns, current.maxTurns],
    ['maxTokens', agents.maxTokens, current.maxTokens],
    ['maxSeconds', agents.maxSeconds, seconds(current.maxMs)],
    ['tree.maxTokens', agents.tree?.maxTokens, current.tree.maxTokens],
    ['tree.maxSeconds', agents.tree?.maxSeconds, seconds(current.tree.maxMs)],
  ];
  return pairs
    .filter(([, value, now]) => typeof value === 'number' && value > now)
    .map(([key, value]) => `agents.${key}=${value}`);
}
