import type { ResolvedSettings } from './settings.js';
import { mergeSettings } from './settings.js';
import { SettingsError } from './settings_file.js';
import { APPROVAL_CATEGORIES, type SettingsLayer } from './types.js';
import { validateSettings } from './validate.js';

/**
 * The session's settings as the config tool reads and changes them, in the keys and units of
 * the settings files (`web.timeouts.total` in seconds). Only keys every use reads afresh may be
 * set, so a change takes effect at once and lasts until the session ends; nothing is written
 * to a settings file. Keys that guard the user (rules, approvals, sandbox, hooks, mode, features,
 * what lathe starts or where it sends data) are never set this way.
 */

/** Keys (and their sub-keys) only the user changes, in a settings file or on the command line. */
const SECURITY_KEYS = [
  'permissions',
  'approvals',
  'sandbox',
  'hooks',
  'mode',
  'strictPlanMode',
  'features',
  'agents',
  'web.allow',
  'web.search',
  'lsp.servers',
  'browser',
  'images',
];

/** A key a session may change: how to show it, and how to copy it from settings that hold the new value. */
interface LiveKey {
  read(s: ResolvedSettings): unknown;
  copy(to: ResolvedSettings, from: ResolvedSettings): void;
}

const seconds = (ms: number) => ms / 1000;

const LIVE: Record<string, LiveKey> = {
  'commands.maxOutputBytes': {
    read: (s) => s.commands.maxOutputBytes,
    copy: (to, from) => {
      to.commands.maxOutputBytes = from.commands.maxOutputBytes;
    },
  },
  'modelTimeouts.firstByte': {
    read: (s) => seconds(s.modelTimeouts.firstByteMs),
    copy: (to, from) => {
      to.modelTimeouts.firstByteMs = from.modelTimeouts.firstByteMs;
    },
  },
  'modelTimeouts.idle': {
    read: (s) => seconds(s.modelTimeouts.idleMs),
    copy: (to, from) => {
      to.modelTimeouts.idleMs = from.modelTimeouts.idleMs;
    },
  },
  'web.timeouts.connect': {
    read: (s) => seconds(s.web.connectTimeoutMs),
    copy: (to, from) => {
      to.web.connectTimeoutMs = from.web.connectTimeoutMs;
    },
  },
  'web.timeouts.total': {
    read: (s) => seconds(s.web.totalTimeoutMs),
    copy: (to, from) => {
      to.web.totalTimeoutMs = from.web.totalTimeoutMs;
    },
  },
  'web.maxBytes': {
    read: (s) => s.web.maxBytes,
    copy: (to, from) => {
      to.web.maxBytes = from.web.maxBytes;
    },
  },
  'lsp.diagnosticsAfterEdit': {
    read: (s) => s.lsp.diagnosticsAfterEdit,
    copy: (to, from) => {
      to.lsp.diagnosticsAfterEdit = from.lsp.diagnosticsAfterEdit;
    },
  },
  'lsp.diagnosticsTimeout.cold': {
    read: (s) => seconds(s.lsp.coldTimeoutMs),
    copy: (to, from) => {
      to.lsp.coldTimeoutMs = from.lsp.coldTimeoutMs;
    },
  },
  'lsp.diagnosticsTimeout.warm': {
    read: (s) => seconds(s.lsp.warmTimeoutMs),
    copy: (to, from) => {
      to.lsp.warmTimeoutMs = from.lsp.warmTimeoutMs;
    },
  },
  'lsp.diagnosticsTimeout.edit': {
    read: (s) => seconds(s.lsp.editWaitMs),
    copy: (to, from) => {
      to.lsp.editWaitMs = from.lsp.editWaitMs;
    },
  },
  'repl.timeout': {
    read: (s) => seconds(s.repl.timeoutMs),
    copy: (to, from) => {
      to.repl.timeoutMs = from.repl.timeoutMs;
    },
  },
  'repl.memoryMb': {
    read: (s) => s.repl.memoryMb,
    copy: (to, from) => {
      to.repl.memoryMb = from.repl.memoryMb;
    },
  },
};

export interface SettingEntry {
  key: string;
  value: unknown;
  settable: boolean;
  why?: string;
}

const isSecurityKey = (key: string) => SECURITY_KEYS.some((k) => key === k || key.startsWith(`${k}.`));

/** Every setting of the session, flat, in the settings files' keys and units. */
function flatten(s: ResolvedSettings, features: readonly string[]): Array<[string, unknown]> {
  const rules = (action: string) => s.rules.filter((r) => r.action === action).map((r) => r.rule);
  return [
    ['model', s.model],
    ['contextWindow', s.contextWindow],
    ['profile', s.profile],
    ['mode', s.mode],
    ['strictPlanMode', s.strictPlanMode],
    ['effort', s.effort],
    ['features', [...features].sort()],
    ...APPROVAL_CATEGORIES.map((c): [string, unknown] => [`approvals.${c}`, s.approvals[c]]),
    ['permissions.allow', rules('allow')],
    ['permissions.ask', rules('ask')],
    ['permissions.deny', rules('deny')],
    ['sandbox.mode', s.sandbox.mode],
    ['sandbox.network', s.sandbox.network],
    ['hooks', s.hooks.map((h) => h.source)],
    ['modelTimeouts.firstByte', seconds(s.modelTimeouts.firstByteMs)],
    ['modelTimeouts.idle', seconds(s.modelTimeouts.idleMs)],
    ['mcp.startupTimeout', seconds(s.mcp.startupTimeoutMs)],
    ['mcp.sessionIdleTimeout', seconds(s.mcp.sessionIdleTimeoutMs)],
    ['mcp.maxSessions', s.mcp.maxSessions],
    ['commands.maxOutputBytes', s.commands.maxOutputBytes],
    ['agents.concurrency', s.agents.concurrency],
    ['agents.maxDepth', s.agents.maxDepth],
    ['agents.maxTurns', s.agents.maxTurns],
    ['agents.maxTokens', s.agents.maxTokens],
    ['agents.maxSeconds', seconds(s.agents.maxMs)],
    ['agents.tree.maxTokens', s.agents.tree.maxTokens],
    ['agents.tree.maxSeconds', seconds(s.agents.tree.maxMs)],
    ['rules.disabled', s.disabledRules],
    ['web.allow', s.web.allow],
    ['web.timeouts.connect', seconds(s.web.connectTimeoutMs)],
    ['web.timeouts.total', seconds(s.web.totalTimeoutMs)],
    ['web.maxBytes', s.web.maxBytes],
    // Backends only by name: their keys are secrets.
    ['web.search', s.web.search.map((b) => b.provider)],
    ['browser.mode', s.browser.mode],
    ['browser.executablePath', s.browser.executablePath],
    ['browser.viewport', s.browser.viewport],
    ['images.model', s.images.model],
    ['lsp.servers', Object.keys(s.lsp.servers)],
    ['lsp.diagnosticsAfterEdit', s.lsp.diagnosticsAfterEdit],
    ['lsp.diagnosticsTimeout.cold', seconds(s.lsp.coldTimeoutMs)],
    ['lsp.diagnosticsTimeout.warm', seconds(s.lsp.warmTimeoutMs)],
    ['lsp.diagnosticsTimeout.edit', seconds(s.lsp.editWaitMs)],
    ['repl.timeout', seconds(s.repl.timeoutMs)],
    ['repl.memoryMb', s.repl.memoryMb],
  ];
}

function entry(key: string, value: unknown): SettingEntry {
  if (LIVE[key]) return { key, value, settable: true };
  if (isSecurityKey(key))
    return {
      key,
      value,
      settable: false,
      why: 'it guards the user: only the user changes it, in a settings file or on the command line',
    };
  return {
    key,
    value,
    settable: false,
    why: 'it is read when the session starts: change it in a settings file and start a new session',
  };
}

/** A one-key settings layer: `web.timeouts.total` = 5 → `{web: {timeouts: {total: 5}}}`. */
function layerOf(key: string, value: unknown): SettingsLayer {
  const parts = key.split('.');
  let layer: unknown = value;
  for (const part of parts.reverse()) layer = { [part]: layer };
  return layer as SettingsLayer;
}

export class SessionSettings {
  constructor(
    private readonly settings: ResolvedSettings,
    private readonly features: () => readonly string[],
    /** --yolo: every approval is answered yes, a change of setting too. */
    readonly preApproved = false,
  ) {}

  list(): SettingEntry[] {
    return flatten(this.settings, this.features()).map(([key, value]) => entry(key, value));
  }

  /** A key, or a section (`web`) as the entries under it together; undefined when lathe knows neither. */
  get(key: string): SettingEntry | undefined {
    const all = this.list();
    const exact = all.find((e) => e.key === key);
    if (exact) return exact;
    const under = all.filter((e) => e.key.startsWith(`${key}.`));
    if (under.length === 0) return undefined;
    const value = Object.fromEntries(under.map((e) => [e.key.slice(key.length + 1), e.value]));
    return {
      key,
      value,
      settable: false,
      why: `a section: set one of its keys (${under.map((e) => e.key).join(', ')})`,
    };
  }

  /** Why `value` may not be set at `key`, in words the model can act on; undefined when it may. */
  problem(key: string, value: unknown): string | undefined {
    const known = this.get(key);
    if (isSecurityKey(key))
      return `${key} cannot be set by the model: permissions, approvals, the sandbox, hooks and the other keys that guard the user change only in a settings file or on the command line, by the user. Ask the user to change it if it is needed.`;
    if (!known) return `lathe has no setting ${key}; config list shows them all.`;
    if (!known.settable) return `${key} cannot be changed during a session: ${known.why}.`;
    return this.probe(key, value).problem;
  }

  set(key: string, value: unknown): { before: unknown; after: unknown } {
    const live = LIVE[key];
    const probed = this.probe(key, value);
    if (!live || probed.problem || !probed.settings)
      throw new SettingsError(probed.problem ?? `${key} cannot be set`);
    const before = live.read(this.settings);
    live.copy(this.settings, probed.settings);
    return { before, after: live.read(this.settings) };
  }

  /** The value checked by the settings files' own rules, resolved into fresh settings. */
  private probe(key: string, value: unknown): { problem?: string; settings?: ResolvedSettings } {
    const layer = layerOf(key, value);
    try {
      validateSettings(layer, 'config');
    } catch (error) {
      return { problem: (error as Error).message.replace(/^config: /, '') };
    }
    const warnings: string[] = [];
    const settings = mergeSettings([{ source: 'config', settings: layer }], warnings);
    if (warnings.length > 0) return { problem: warnings.map((w) => w.replace(/^config: /, '')).join('; ') };
    return { settings };
  }
}
