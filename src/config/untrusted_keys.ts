import type { AgentLimits } from './agent_limits.js';
import type { CheckpointSettings } from './checkpoint_settings.js';
import { type FeatureLayer, resolveFeatures } from './features.js';
import type { LspSettings } from './lsp_settings.js';
import type { ReplSettings } from './repl_settings.js';
import { APPROVAL_CATEGORIES, type ApprovalCategory, type Mode, type RuleAction } from './types.js';
import type { WebSettings } from './web_settings.js';

/** What the layers before an untrusted one decided, to tell tightening from loosening. */
export interface SettingsSoFar {
  approvals: Record<ApprovalCategory, RuleAction>;
  sandbox: { mode: 'read-only' | 'workspace-write' | 'off'; network: boolean };
  mode: Mode;
  strictPlanMode: boolean;
  featureLayers: FeatureLayer[];
  agents: AgentLimits;
  web: WebSettings;
  repl: ReplSettings;
  lsp: LspSettings;
  checkpoints: CheckpointSettings;
}

/** What becomes of one key's value from an untrusted folder: kept (maybe in part), and what was not. */
export type Verdict = { keep?: unknown; ignored?: string };
export type KeyRule = (value: unknown, now: SettingsSoFar, path: string) => Verdict;

const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** Changes nothing about what lathe may do, reach or run. */
const asWritten: KeyRule = (value) => ({ keep: value });

/** Kept only when `tightens` says so; otherwise named as `path=value`. */
const onlyWhen =
  (tightens: (value: unknown, now: SettingsSoFar) => boolean): KeyRule =>
  (value, now, path) =>
    tightens(value, now) ? { keep: value } : { ignored: `${path}=${show(value)}` };

/** A bound that may only come down (what it allows shrinks), in the unit settings use. */
const noHigher = (current: (now: SettingsSoFar) => number) =>
  onlyWhen((value, now) => typeof value === 'number' && value <= current(now));

/** A bound that may only go up (what it keeps grows). */
const noLower = (current: (now: SettingsSoFar) => number) =>
  onlyWhen((value, now) => typeof value === 'number' && value >= current(now));

const ACTION_STRICTNESS: Record<RuleAction, number> = { allow: 0, ask: 1, deny: 2 };
const SANDBOX_STRICTNESS: Record<string, number> = { off: 0, 'workspace-write': 1, 'read-only': 2 };

/** Features may be switched off, never on (a name already on is repeated, not added). */
const featuresOffOnly: KeyRule = (value, now) => {
  const on = resolveFeatures({ settingsLayers: now.featureLayers });
  const turnsOn = (name: string) => !on.has(name);
  let added: string[];
  let keep: unknown;
  if (Array.isArray(value)) {
    added = value.filter((f) => !f.startsWith('-') && turnsOn(f.replace(/^\+/, '')));
    keep = value.filter((f) => !added.includes(f));
  } else {
    const entries = Object.entries(value as Record<string, boolean>);
    added = entries.filter(([name, on]) => on && turnsOn(name)).map(([name]) => name);
    keep = Object.fromEntries(entries.filter(([name]) => !added.includes(name)));
  }
  return { keep, ignored: added.length > 0 ? `features ${added.join(', ')}` : undefined };
};

const seconds = (ms: number) => ms / 1000;

/**
 * What an untrusted folder may set, key by key (dotted paths of the settings). A key that is
 * neither here nor in REFUSED_FROM_UNTRUSTED is refused too, and test/config/untrusted_keys
 * fails until someone decides where it belongs: a new key never passes by default.
 */
export const UNTRUSTED_MAY_SET: Readonly<Record<string, KeyRule>> = {
  // Which of the user's configured models and how it works; keys and endpoints never come from here.
  model: asWritten,
  effort: asWritten,
  contextWindow: asWritten,
  'context.compactAt': asWritten,
  // The tool set (standard, lite, simple): every tool in it still asks as the user's rules say.
  profile: asWritten,
  // Colours only.
  theme: asWritten,
  mode: onlyWhen((value, now) => value === 'plan' || now.mode === 'act'),
  strictPlanMode: onlyWhen((value, now) => value === true || !now.strictPlanMode),
  features: featuresOffOnly,
  ...Object.fromEntries(
    APPROVAL_CATEGORIES.map((category) => [
      `approvals.${category}`,
      onlyWhen(
        (value, now) => ACTION_STRICTNESS[value as RuleAction] >= ACTION_STRICTNESS[now.approvals[category]],
      ),
    ]),
  ),
  'permissions.ask': asWritten,
  'permissions.deny': asWritten,
  'sandbox.mode': onlyWhen(
    (value, now) => SANDBOX_STRICTNESS[value as string] >= SANDBOX_STRICTNESS[now.sandbox.mode],
  ),
  'sandbox.network': onlyWhen((value, now) => value === false || now.sandbox.network),
  'agents.concurrency': noHigher((now) => now.agents.concurrency),
  'agents.maxDepth': noHigher((now) => now.agents.maxDepth),
  'agents.maxTurns': noHigher((now) => now.agents.maxTurns),
  'agents.maxTokens': noHigher((now) => now.agents.maxTokens),
  'agents.maxSeconds': noHigher((now) => seconds(now.agents.maxMs)),
  'agents.tree.maxTokens': noHigher((now) => now.agents.tree.maxTokens),
  'agents.tree.maxSeconds': noHigher((now) => seconds(now.agents.tree.maxMs)),
  'web.timeouts.connect': noHigher((now) => seconds(now.web.connectTimeoutMs)),
  'web.timeouts.total': noHigher((now) => seconds(now.web.totalTimeoutMs)),
  'web.maxBytes': noHigher((now) => now.web.maxBytes),
  'repl.timeout': noHigher((now) => seconds(now.repl.timeoutMs)),
  'repl.memoryMb': noHigher((now) => now.repl.memoryMb),
  'lsp.diagnosticsAfterEdit': onlyWhen((value, now) => value === false || now.lsp.diagnosticsAfterEdit),
  'lsp.diagnosticsTimeout.cold': noHigher((now) => seconds(now.lsp.coldTimeoutMs)),
  'lsp.diagnosticsTimeout.warm': noHigher((now) => seconds(now.lsp.warmTimeoutMs)),
  'lsp.diagnosticsTimeout.edit': noHigher((now) => seconds(now.lsp.editWaitMs)),
  'checkpoints.enabled': onlyWhen((value, now) => value === true || !now.checkpoints.enabled),
  // Fewer kept, or kept for less time, would prune the way back.
  'checkpoints.keep': noLower((now) => now.checkpoints.keep),
  'checkpoints.maxAgeDays': noLower((now) => now.checkpoints.maxAgeDays),
};

/** What an untrusted folder may never set, whatever the value, and why. */
export const REFUSED_FROM_UNTRUSTED: Readonly<Record<string, string>> = {
  'permissions.allow': 'an allow rule runs without asking',
  hooks: 'hooks run commands',
  'rules.disabled': "it would turn off the user's own rules",
  'web.allow': 'it opens private addresses to fetches',
  'web.search': 'it sends queries (and an API key) to another server',
  browser: 'it names a program to run and a profile to open',
  images: 'it says where prompts are sent and paid for',
  github: 'its secret lets webhook deliveries into the session',
  'lsp.servers': 'language servers are commands lathe starts',
  'checkpoints.exclude': 'it takes the way back away from those files',
  'commands.maxOutputBytes': 'a higher cap lets a command fill the disk, a lower one stops commands midway',
  'jobs.queue': 'it says where jobs and their output are sent',
  'jobs.concurrency': 'it sets how many jobs run at once',
  'jobs.lockSeconds': 'it sets how long a job stays claimed by a worker',
  'modelTimeouts.firstByte': "how long a model request may wait is the user's choice",
  'modelTimeouts.idle': "how long a model request may wait is the user's choice",
  'mcp.startupTimeout': "how long runs wait for the user's MCP servers is the user's choice",
  'mcp.sessionIdleTimeout': 'it keeps served sessions open longer',
  'mcp.maxSessions': 'it lets more clients hold sessions on the served endpoint',
  'mcp.allowedOrigins': 'it lets web pages call the served endpoint',
};
