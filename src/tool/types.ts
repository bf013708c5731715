import type { z } from 'zod';
import type { AgentKind, ApprovalCategory, Mode, Profile } from '../config/types.js';
import type { PermissionDecision, PermissionEngine, PermissionSubject } from '../permission/types.js';
import type { AgentInteraction } from './context/agent.js';
import type { BackgroundCommand } from './context/background_commands.js';
import type { McpAccess } from './context/mcp.js';
import type { ScheduleAccess } from './context/schedules.js';
import type { BackgroundTask } from './context/tasks.js';
import type { CallFacts } from './facts.js';
import type { ImageBlock, ToolOutput } from './output.js';
import type { ReadTracker } from './read_tracker.js';

export type {
  AgentKind,
  CallFacts,
  ImageBlock,
  Mode,
  PermissionDecision,
  PermissionSubject,
  Profile,
  ToolOutput,
};

/** What the model provider can do; tools that need a capability are left out without it. */
export interface ProviderCapabilities {
  images: boolean;
  browserUse: boolean;
  nativeTools: boolean;
  imageGeneration: boolean;
}

/** Everything the availability conditions look at when the pool is assembled. */
export interface PoolConditions {
  profile: Profile;
  mode: Mode;
  strictPlanMode: boolean;
  features: ReadonlySet<string>;
  capabilities: ProviderCapabilities;
  agentKind: AgentKind;
  /** Whether any MCP server is connected (MCP tools need one). */
  mcpConnected: boolean;
  /** Whether at least one skill exists (load_skill needs one). */
  hasSkills: boolean;
  /** Whether a language server can be started (find_references, rename). */
  languageServers: boolean;
  /** Headless `--json-schema` runs get structured_output. */
  jsonSchema: boolean;
  platform: NodeJS.Platform;
  nodeEnv: string | undefined;
}

/** The availability conditions a tool definition declares (profiles, modes, features, capabilities). */
export interface Availability {
  profiles: readonly Profile[];
  /** A feature switch that must be on. */
  feature?: string;
  /** Modes the tool is offered in (default: both). */
  modes?: readonly Mode[];
  /** Provider capabilities the tool needs. */
  needs?: readonly (keyof ProviderCapabilities)[];
  /** Agent kinds that never get this tool. */
  notFor?: readonly AgentKind[];
  /** Offered only under NODE_ENV=test. */
  testOnly?: boolean;
  /** Environment checks: a connected MCP server, a skill, a language server, a --json-schema run. */
  requires?: readonly ('mcp' | 'skills' | 'languageServer' | 'jsonSchema')[];
}

/** Why permissions refused a call: a deny, or an ask with no one present to answer it. */
export interface PermissionDenial {
  reason: string;
  category?: ApprovalCategory;
  /** What would let such a call run (a flag, a rule), when something can. */
  remedy?: string;
}

/** What the model (and `runTool`) sees for one call. */
export interface ToolResult {
  isError: boolean;
  text: string;
  data?: unknown;
  images?: ImageBlock[];
  /** Where the whole result was saved when it was over budget. */
  savedPath?: string;
  /** Set when permissions refused the call, so it did not run. */
  permissionDenial?: PermissionDenial;
}

/** Runtime services a tool may use. Everything that touches disk or processes goes through here. */
export interface ToolContext {
  cwd: string;
  /** The workspace root (for permission and relative paths). */
  workspace: string;
  documentsRoot: string;
  sessionDir: string;
  signal: AbortSignal;
  conditions: PoolConditions;
  permissions: PermissionEngine;
  /** Per-runtime memory of what the model saw of each file (the read-before-edit check). */
  readFiles: ReadTracker;
  /** Commands running in the background, by id (execute_command, kill_command). */
  backgroundCommands: Map<string, BackgroundCommand>;
  /**
   * Wraps a command line in the OS sandbox; resolves to undefined when commands run bare. In
   * Plan mode (`agentMode`) it is the read-only sandbox. `cleanup()`, once the command has
   * ended, may return a line saying what it undid at protected paths (for the result).
   */
  sandbox?: {
    wrap(
      argv: string[],
      cwd: string,
      call?: { agentMode?: Mode },
    ): Promise<{ argv: string[]; cleanup(): string | undefined } | undefined>;
  };
  /**
   * Fail closed: the verdict on running a command now — allow when it runs in the sandbox (or
   * the user turned the sandbox off); ask or deny, saying why, when the sandbox should wrap it
   * but cannot. The pipeline consults it for every call whose subject is `execute`.
   */
  sandboxGate?: () => Promise<PermissionDecision>;
  /** Output saved per command (settings `commands.maxOutputBytes`); past it the command is stopped. */
  maxOutputBytes?: number;
  /** Tasks of the task_* tools, by id. */
  tasks?: Map<string, BackgroundTask>;
  /** The schedule services (cron_*, remote_trigger), made on the first call. */
  schedules?: () => ScheduleAccess;
  /** Reports progress of a long call (shown by clients). */
  progress?: (message: string) => void;
  /** The agent running the call, for the conversation tools. */
  interaction?: AgentInteraction;
  /** The MCP client, when MCP servers are configured (the MCP tools use it). */
  mcp?: McpAccess;
}

export interface ToolDefinition<I = any> {
  name: string;
  aliases?: readonly string[];
  inputSchema: z.ZodType<I>;
  /** Standard description for the model. */
  description: string;
  /** Short description for the Lite profile (falls back to `description`). */
  liteDescription?: string;
  availability: Availability;
  /** Result budget in characters; over it, the result is saved to a file and previewed. */
  maxResultChars?: number;
  /** A failing call cancels the other calls of its parallel batch (shell commands). */
  cancelsSiblingsOnError?: boolean;
  /** What the permission engine looks at; default: nothing to check. */
  permissionSubject?(input: I, ctx: ToolContext, facts: CallFacts): PermissionSubject;
  isEnabled?(ctx: PoolConditions): boolean;
  isReadOnly?(input: I, facts: CallFacts): boolean;
  isConcurrencySafe?(input: I, facts: CallFacts): boolean;
  isDestructive?(input: I): boolean;
  checkPermissions?(input: I, ctx: ToolContext): PermissionDecision | Promise<PermissionDecision>;
  toAutoClassifierInput?(input: I): string;
  userFacingName?(input: I | undefined): string;
  /**
   * The parse step's facts beyond the schema (the parsed shell command) that the contract methods
   * answer from; a failure is a fact ("not parsed"), never thrown. Default: none.
   */
  parseFacts?(input: I): Promise<CallFacts>;
  /** Tool-specific checks after the schema, before permissions; returns an error message or nothing. */
  validateInput?(input: I, ctx: ToolContext): string | undefined | Promise<string | undefined>;
  call(input: I, ctx: ToolContext): Promise<ToolOutput>;
  /** Static read-only / concurrency facts for listings; "dynamic" when they depend on input. */
  dynamic?: { readOnly?: boolean; concurrencySafe?: boolean };
}

/** A tool with every contract member filled in. */
export interface Tool<I = any>
  extends Required<
    Omit<
      ToolDefinition<I>,
      | 'liteDescription'
      | 'permissionSubject'
      | 'validateInput'
      | 'dynamic'
      | 'cancelsSiblingsOnError'
      | 'parseFacts'
    >
  > {
  liteDescription: string;
  cancelsSiblingsOnError: boolean;
  dynamic: { readOnly: boolean; concurrencySafe: boolean };
  permissionSubject(input: I, ctx: ToolContext, facts: CallFacts): PermissionSubject;
  validateInput(input: I, ctx: ToolContext): string | undefined | Promise<string | undefined>;
  parseFacts?(input: I): Promise<CallFacts>;
  /** Built-in or from an MCP server (external tools come after built-ins in the pool). */
  source: 'builtin' | 'external';
}
