export type Profile = 'standard' | 'lite' | 'simple';
export type Mode = 'plan' | 'act';
export type AgentKind = 'main' | 'subagent' | 'task';
export type RuleAction = 'allow' | 'ask' | 'deny';

export const PROFILES: readonly Profile[] = ['standard', 'lite', 'simple'];
export const MODES: readonly Mode[] = ['plan', 'act'];

/** The terminal UI's colour themes (docs/tui.md); NO_COLOR always means plain. */
export const THEME_NAMES = ['dark', 'light', 'plain'] as const;
export type ThemeName = (typeof THEME_NAMES)[number];

/** How hard the model thinks before answering: each provider's reasoning setting (docs/providers.md). */
export const EFFORTS = ['low', 'medium', 'high'] as const;
export type Effort = (typeof EFFORTS)[number];

/** The approval categories a permission decision falls in, as settings keys. */
export const APPROVAL_CATEGORIES = [
  'read',
  'readOutside',
  'edit',
  'editOutside',
  'executeSafe',
  'executeAll',
  'browser',
  'web',
  'mcp',
  'subagents',
  'todo',
] as const;
export type ApprovalCategory = (typeof APPROVAL_CATEGORIES)[number];

/** One settings file (global, workspace) or the command line, as written. */
export interface SettingsLayer {
  model?: string;
  /** Overrides the model's context window (tokens), e.g. for a local model served with a small one. */
  contextWindow?: number;
  profile?: Profile;
  mode?: Mode;
  strictPlanMode?: boolean;
  /** The terminal UI's colours: dark (default), light or plain. */
  theme?: ThemeName;
  features?: string[] | Record<string, boolean>;
  approvals?: Partial<Record<ApprovalCategory, RuleAction>>;
  permissions?: Partial<Record<RuleAction, string[]>>;
  sandbox?: { mode?: 'read-only' | 'workspace-write' | 'off'; network?: boolean };
  /** Seconds a model request may wait for its first byte (default 60) and pause mid-stream (default 120). */
  modelTimeouts?: { firstByte?: number; idle?: number };
  /**
   * Seconds runs wait for MCP servers at start (default 10); idle expiry and cap of served HTTP
   * sessions, and the web origins whose pages may call the served endpoint.
   */
  mcp?: {
    startupTimeout?: number;
    sessionIdleTimeout?: number;
    maxSessions?: number;
    allowedOrigins?: string[];
  };
  effort?: Effort;
  /** Shell commands: `maxOutputBytes` caps the output saved per command (it is stopped there). */
  commands?: { maxOutputBytes?: number };
  /** Child agents: how many at once, how deep, and what each and all together may spend (seconds for time). */
  agents?: {
    concurrency?: number;
    maxDepth?: number;
    maxTurns?: number;
    maxTokens?: number;
    maxSeconds?: number;
    tree?: { maxTokens?: number; maxSeconds?: number };
  };
  /** Commands run at events (`PreToolUse`, …): `{EVENT: [{matcher, hooks}]}`; `readClaude` adds Claude Code's. */
  hooks?: Record<string, unknown>;
  /** Rule files left out of the system prompt, by the name `/rules` shows or their file name. */
  rules?: { disabled?: string[] };
  /** web_fetch and web_search: non-public hosts allowed, timeouts (seconds), body cap, search backends (docs/web.md). */
  web?: {
    allow?: string[];
    timeouts?: { connect?: number; total?: number };
    maxBytes?: number;
    search?: WebSearchSetting & { fallback?: Array<WebSearchSetting | string> };
  };
  /** Language servers over the built-ins, and diagnostics after edits (see lsp_settings.ts). */
  lsp?: {
    servers?: Record<string, LanguageServerSetting>;
    diagnosticsAfterEdit?: boolean;
    diagnosticsTimeout?: { cold?: number; warm?: number; edit?: number };
  };
  /** `lathe jobs` and `lathe worker`: the queue (`local` or redis://…), jobs at once, BullMQ's lock time (seconds). */
  jobs?: { queue?: string; concurrency?: number; lockSeconds?: number };
  /** The JavaScript REPL (repl tool): seconds one run may take, and its heap in MB. */
  repl?: { timeout?: number; memoryMb?: number };
  /** When the conversation is compacted: `compactAt`, a share of the context window (default 0.85). */
  context?: { compactAt?: number };
  /** subscribe_pr's webhook receiver: its port on 127.0.0.1 (0: any free) and the secret deliveries are signed with. */
  github?: { webhookPort?: number; webhookSecret?: string };
  /** How browser_action gets its browser (browser_settings.ts). */
  browser?: {
    executablePath?: string;
    mode?: 'isolated' | 'persistent' | 'cdp';
    cdpUrl?: string;
    userDataDir?: string;
    viewport?: { width?: number; height?: number };
  };
  /** generate_image's model, `provider/model`. */
  images?: { model?: string };
  /** Snapshots before prompts and changes, for /undo and /rewind (docs/checkpoints.md). */
  checkpoints?: { enabled?: boolean; keep?: number; maxAgeDays?: number; exclude?: string[] };
  [key: string]: unknown;
}

/** One search backend in settings: `provider` is native, brave, tavily, exa, searxng or duckduckgo. */
export interface WebSearchSetting {
  provider: string;
  apiKey?: string;
  url?: string;
}

/** One language server as settings describe it (`lsp.servers.NAME`). */
export interface LanguageServerSetting {
  command?: string;
  args?: string[];
  /** Language ids it serves (`typescript`, `python`, `go`, …). */
  languages?: string[];
  /** File extensions beyond the known ones that belong to its languages (`.zig`). */
  extensions?: string[];
  /** Files or folders that mark a project root (`package.json`, `go.mod`). */
  rootMarkers?: string[];
  initializationOptions?: unknown;
  /** false turns a built-in server off. */
  enabled?: boolean;
}
