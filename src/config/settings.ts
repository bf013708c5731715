import { type AgentLimits, DEFAULT_AGENT_LIMITS, mergeAgentLimits } from './agent_limits.js';
import {
  type BrowserSettings,
  DEFAULT_BROWSER_SETTINGS,
  type ImageSettings,
  mergeBrowserSettings,
} from './browser_settings.js';
import {
  type CheckpointSettings,
  DEFAULT_CHECKPOINT_SETTINGS,
  mergeCheckpointSettings,
} from './checkpoint_settings.js';
import { type ContextSettings, DEFAULT_CONTEXT_SETTINGS, mergeContextSettings } from './context_settings.js';
import { DEFAULT_GITHUB_SETTINGS, type GithubSettings, mergeGithubSettings } from './github_settings.js';
import { DEFAULT_LSP_SETTINGS, type LspSettings, mergeLspSettings } from './lsp_settings.js';
import { DEFAULT_REPL_SETTINGS, mergeReplSettings, type ReplSettings } from './repl_settings.js';
import { readSettingsObject } from './settings_file.js';
import {
  DEFAULT_MCP_LIMITS,
  DEFAULT_MODEL_TIMEOUTS,
  type McpLimits,
  type ModelTimeouts,
  mergeTimeouts,
} from './timeouts.js';
import {
  APPROVAL_CATEGORIES,
  type ApprovalCategory,
  EFFORTS,
  type Effort,
  MODES,
  type Mode,
  PROFILES,
  type Profile,
  type RuleAction,
  type SettingsLayer,
  THEME_NAMES,
  type ThemeName,
} from './types.js';
import { tightenOnly } from './untrusted.js';
import { validateSettings } from './validate.js';
import { DEFAULT_WEB_SETTINGS, mergeWebSettings, type WebSettings } from './web_settings.js';

/** A settings layer with where it came from, for error messages and rule sources. */
export interface NamedLayer {
  source: string;
  settings: SettingsLayer;
  /** A folder the user has not trusted: its layer may only tighten (see untrusted.ts). */
  untrusted?: boolean;
}

export interface RuleText {
  rule: string;
  action: RuleAction;
  source: string;
}

/** Settings after merging global, workspace and command line (later wins; deny rules from every level stay). */
export interface ResolvedSettings {
  model?: string;
  contextWindow?: number;
  profile: Profile;
  mode: Mode;
  strictPlanMode: boolean;
  /** The terminal UI's colour theme (settings `theme`). */
  theme: ThemeName;
  approvals: Record<ApprovalCategory, RuleAction>;
  rules: RuleText[];
  modelTimeouts: ModelTimeouts;
  mcp: McpLimits;
  /** The model's reasoning effort, when set. */
  effort?: Effort;
  /** `modeSource`: the settings file (or "command line") that chose the mode; absent for the default. */
  sandbox: { mode: 'read-only' | 'workspace-write' | 'off'; network: boolean; modeSource?: string };
  commands: { maxOutputBytes: number };
  /** Bounds on child agents (settings `agents`). */
  agents: AgentLimits;
  /** The `hooks` object of each layer that has one (untrusted layers never do), in order. */
  hooks: Array<{ source: string; value: unknown }>;
  /** Rule files left out of the system prompt (`rules.disabled` of every layer together). */
  disabledRules: string[];
  /** web_fetch and web_search (settings `web`). */
  web: WebSettings;
  /** How browser_action gets its browser (settings `browser`). */
  browser: BrowserSettings;
  /** generate_image's model (settings `images`). */
  images: ImageSettings;
  /** Language servers and the diagnostics added to edits (settings `lsp`). */
  lsp: LspSettings;
  /** The JavaScript REPL's limits (settings `repl`). */
  repl: ReplSettings;
  /** When the conversation is compacted (settings `context`). */
  context: ContextSettings;
  /** subscribe_pr's webhook receiver (settings `github`). */
  github: GithubSettings;
  /** Snapshots of the workspace before prompts and changes (settings `checkpoints`). */
  checkpoints: CheckpointSettings;
  /** The `features` entries of each layer, in order, for feature resolution. */
  featureLayers: Array<SettingsLayer['features']>;
  /** Problems found while reading settings; reported, never fatal. */
  warnings: string[];
  /** What untrusted layers asked for and did not get (`2 allow rules`, `sandbox.mode=off`). */
  ignoredUntrusted: string[];
}

/** Output saved per shell command before it is cut and the command stopped: 64 MB. */
export const DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

export const DEFAULT_APPROVALS: Record<ApprovalCategory, RuleAction> = {
  read: 'allow',
  readOutside: 'ask',
  edit: 'ask',
  editOutside: 'ask',
  executeSafe: 'allow',
  executeAll: 'ask',
  browser: 'ask',
  web: 'ask',
  mcp: 'ask',
  subagents: 'allow',
  todo: 'allow',
};

/**
 * Reads a settings file (JSONC); a missing file is an empty layer. A file that does not parse,
 * or a key of the wrong type, throws a SettingsError naming the file (and line, or key).
 */
export function readSettingsFile(path: string): SettingsLayer {
  const value = readSettingsObject(path);
  return value === undefined ? {} : validateSettings(value, path);
}

function isAction(value: unknown): value is RuleAction {
  return value === 'allow' || value === 'ask' || value === 'deny';
}

export function mergeSettings(layers: NamedLayer[], warnings: string[] = []): ResolvedSettings {
  const resolved: ResolvedSettings = {
    profile: 'standard',
    mode: 'act',
    strictPlanMode: false,
    theme: 'dark',
    approvals: { ...DEFAULT_APPROVALS },
    rules: [],
    sandbox: { mode: 'workspace-write', network: false },
    modelTimeouts: { ...DEFAULT_MODEL_TIMEOUTS },
    mcp: { ...DEFAULT_MCP_LIMITS, allowedOrigins: [] },
    commands: { maxOutputBytes: DEFAULT_MAX_OUTPUT_BYTES },
    agents: { ...DEFAULT_AGENT_LIMITS, tree: { ...DEFAULT_AGENT_LIMITS.tree } },
    disabledRules: [],
    web: { ...DEFAULT_WEB_SETTINGS, allow: [] },
    browser: { ...DEFAULT_BROWSER_SETTINGS },
    images: {},
    lsp: { ...DEFAULT_LSP_SETTINGS },
    repl: { ...DEFAULT_REPL_SETTINGS },
    context: { ...DEFAULT_CONTEXT_SETTINGS },
    github: { ...DEFAULT_GITHUB_SETTINGS },
    checkpoints: { ...DEFAULT_CHECKPOINT_SETTINGS, exclude: [] },
    featureLayers: [],
    hooks: [],
    warnings,
    ignoredUntrusted: [],
  };
  for (const layer of layers) {
    const { source } = layer;
    let settings = layer.settings;
    if (layer.untrusted) {
      const tightened = tightenOnly(settings, resolved);
      settings = tightened.layer;
      resolved.ignoredUntrusted.push(...tightened.ignored);
    }
    if (typeof settings.model === 'string') resolved.model = settings.model;
    if (settings.contextWindow !== undefined) {
      if (typeof settings.contextWindow === 'number' && settings.contextWindow > 0) {
        resolved.contextWindow = settings.contextWindow;
      } else {
        warnings.push(`${source}: contextWindow must be a positive number of tokens`);
      }
    }
    if (settings.profile !== undefined) {
      if (PROFILES.includes(settings.profile)) resolved.profile = settings.profile;
      else warnings.push(`${source}: unknown profile "${settings.profile}" (use ${PROFILES.join(', ')})`);
    }
    if (settings.mode !== undefined) {
      if (MODES.includes(settings.mode)) resolved.mode = settings.mode;
      else warnings.push(`${source}: unknown mode "${settings.mode}" (use plan or act)`);
    }
    if (typeof settings.strictPlanMode === 'boolean') resolved.strictPlanMode = settings.strictPlanMode;
    if (settings.theme !== undefined && THEME_NAMES.includes(settings.theme)) resolved.theme = settings.theme;
    for (const [key, value] of Object.entries(settings.approvals ?? {})) {
      if (!(APPROVAL_CATEGORIES as readonly string[]).includes(key)) {
        warnings.push(
          `${source}: unknown approval category "${key}" (use ${APPROVAL_CATEGORIES.join(', ')})`,
        );
      } else if (!isAction(value)) {
        warnings.push(`${source}: approval "${key}" must be allow, ask or deny`);
      } else {
        resolved.approvals[key as ApprovalCategory] = value;
      }
    }
    for (const action of ['allow', 'ask', 'deny'] as const) {
      const list = settings.permissions?.[action];
      if (list === undefined) continue;
      if (!Array.isArray(list)) {
        warnings.push(`${source}: permissions.${action} must be a list of rules`);
        continue;
      }
      for (const rule of list) {
        if (typeof rule === 'string') resolved.rules.push({ rule, action, source });
        else warnings.push(`${source}: permissions.${action} holds a non-string rule; ignored`);
      }
    }
    if (settings.sandbox) {
      const { mode, network } = settings.sandbox;
      if (mode === 'read-only' || mode === 'workspace-write' || mode === 'off') {
        resolved.sandbox.mode = mode;
        resolved.sandbox.modeSource = source;
      }
      if (typeof network === 'boolean') resolved.sandbox.network = network;
    }
    if (settings.effort !== undefined) {
      if (EFFORTS.includes(settings.effort)) resolved.effort = settings.effort;
      else warnings.push(`${source}: unknown effort "${settings.effort}" (use ${EFFORTS.join(', ')})`);
    }
    if (settings.commands?.maxOutputBytes !== undefined) {
      const max = settings.commands.maxOutputBytes;
      if (typeof max === 'number' && Number.isInteger(max) && max > 0) resolved.commands.maxOutputBytes = max;
      else warnings.push(`${source}: commands.maxOutputBytes must be a positive whole number of bytes`);
    }
    if (settings.features !== undefined) resolved.featureLayers.push(settings.features);
    if (settings.hooks !== undefined) resolved.hooks.push({ source, value: settings.hooks });
    for (const name of settings.rules?.disabled ?? [])
      if (!resolved.disabledRules.includes(name)) resolved.disabledRules.push(name);
    mergeTimeouts(resolved, source, settings, warnings);
    mergeAgentLimits(resolved.agents, source, settings, warnings);
    mergeWebSettings(resolved.web, settings);
    mergeBrowserSettings(resolved, source, settings, warnings);
    mergeLspSettings(resolved.lsp, settings);
    mergeReplSettings(resolved.repl, settings);
    mergeContextSettings(resolved.context, settings);
    mergeGithubSettings(resolved.github, settings);
    mergeCheckpointSettings(resolved.checkpoints, settings);
  }
  return resolved;
}
