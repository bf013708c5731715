import type { z } from 'zod';
import type { AgentKind, ApprovalCategory, Mode, Profile } from '../config/types.js';
import type { PermissionDecision, PermissionEngine, PermissionSubject } from '../permission/types.js';
import type { ToolEvent } from './events.js';
import type { CallFacts } from './facts.js';
import type { ReadTracker } from './read_tracker.js';

export type { AgentKind, CallFacts, Mode, PermissionDecision, PermissionSubject, Profile };

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

export interface ImageBlock {
  mediaType: string;
  /** base64 data */
  data: string;
}

/** What a tool's `call` returns. */
export interface ToolOutput {
  text: string;
  isError?: boolean;
  data?: unknown;
  images?: ImageBlock[];
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

/** What the conversation tools need from the agent running them; absent when a tool runs alone. */
export interface AgentInteraction {
  readonly mode: Mode;
  /** Asks the user a question; headless runs answer from --answers or say no user is present. */
  ask(question: string, options?: string[]): Promise<{ answer: string; present: boolean }>;
  /** Asks the user to approve a plan or acknowledge a phase. */
  confirm(request: { kind: 'plan' | 'phase' | 'todo'; title: string; body: string }): Promise<{
    approved: boolean;
    feedback?: string;
  }>;
  /** Shows the user something: a report, a status line, a plan. */
  emit(event: ToolEvent): void;
  /** Ends the run after this batch of calls; `structured` is an accepted structured_output object. */
  finish(outcome: { kind: 'completion' | 'answer' | 'stopped'; text: string; structured?: unknown }): void;
  setMode(mode: Mode): void;
  /** The mode before Plan mode was entered, to return to. */
  readonly previousMode: Mode;
  /** The JSON Schema the final answer must match (headless --json-schema). */
  readonly jsonSchema?: Record<string, unknown>;
}

/** A command started with `run_in_background`, kept per runtime until it is read or killed. */
export interface BackgroundCommand {
  id: string;
  command: string;
  outputPath: string;
  startedAt: number;
  /** Settles when the command ends; then `exitCode`/`signal` are known. */
  done: Promise<void>;
  finished: boolean;
  exitCode?: number | null;
  signal?: NodeJS.Signals | null;
  /** The size its saved output was cut at, when it printed more (it was stopped there). */
  outputCutAt?: number;
  /** Ends the command's whole process tree. */
  kill(): void;
  /** Set while the model waits for the command; `detach` hands it the result early and lets the command run on. */
  foreground?: boolean;
  detach?(): void;
}

export type TaskStatus = 'pending' | 'running' | 'completed' | 'failed' | 'stopped';

/** A task of task_create, kept per runtime: tracked work, run by a process when it has a command. */
export interface BackgroundTask {
  id: string;
  subject: string;
  description?: string;
  command?: string;
  status: TaskStatus;
  createdAt: number;
  endedAt?: number;
  exitCode?: number | null;
  signal?: NodeJS.Signals | null;
  outputPath?: string;
  /** Bytes of output task_output has returned so far ("new since last read" starts here). */
  readOffset: number;
  /** The size its saved output was cut at, when it printed more (it was stopped there). */
  outputCutAt?: number;
  /** Settles when the process ends (process tasks only). */
  done?: Promise<void>;
  /** Ends the process tree (process tasks only). */
  kill?(): void;
}

/** A prompt scheduled with cron_create, persisted under documents-root. */
export interface ScheduledPrompt {
  id: string;
  /** A cron expression: 5 fields, or 6 with seconds first. */
  schedule: string;
  prompt: string;
  recurring: boolean;
  /** Only a lathe running in this workspace fires it. */
  workspace: string;
  createdAt: string;
  lastRunAt?: string;
  /** Runs missed while no lathe ran there: reported once, never replayed. */
  missed?: { count: number; lastAt: string };
  /** Computed when listed, not stored. */
  nextRunAt?: string;
}

/** A remote trigger as listed; its token is shown once, at creation, and stored only hashed. */
export interface RemoteTriggerInfo {
  id: string;
  name?: string;
  /** Used when a request brings no prompt of its own. */
  prompt?: string;
  workspace: string;
  createdAt: string;
  lastFiredAt?: string;
  url: string;
}

/** The runtime's scheduled prompts and remote triggers (cron_*, remote_trigger). */
export interface ScheduleServices {
  createCron(spec: { schedule: string; prompt: string; recurring: boolean }): Promise<ScheduledPrompt>;
  deleteCron(id: string): Promise<ScheduledPrompt | undefined>;
  listCron(): Promise<ScheduledPrompt[]>;
  createTrigger(spec: {
    name?: string;
    prompt?: string;
  }): Promise<{ trigger: RemoteTriggerInfo; token: string }>;
  /** The triggers and where the endpoint listens (or why it does not). */
  listTriggers(): Promise<{ triggers: RemoteTriggerInfo[]; endpoint: string }>;
  revokeTrigger(id: string): Promise<RemoteTriggerInfo | undefined>;
  /** Notices no client has shown yet (missed runs, errors); each is returned once. */
  takeNotices(): string[];
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
  schedules?: () => ScheduleServices;
  /** Reports progress of a long call (shown by clients). */
  progress?: (message: string) => void;
  /** The agent running the call, for the conversation tools. */
  interaction?: AgentInteraction;
  /** The MCP client, when MCP servers are configured (the MCP tools use it). */
  mcp?: McpAccess;
}

/** An MCP server's tool as the MCP tools see it. */
export interface McpToolSummary {
  /** The name in the pool: `server__tool`, sanitised. */
  name: string;
  server: string;
  /** The tool's own name on its server. */
  tool: string;
  description: string;
  inputSchema: Record<string, unknown>;
  readOnly: boolean;
  /** Held back from the pool until tool_search loads it. */
  deferred: boolean;
}

export interface McpServerSummary {
  name: string;
  state: 'connecting' | 'connected' | 'failed' | 'disabled';
  error?: string;
  tools: McpToolSummary[];
}

/** What the MCP tools need of the MCP client; `src/mcp` implements it. Failures are thrown as Errors the model can act on. */
export interface McpAccess {
  servers(): McpServerSummary[];
  /** A server's tool; connects (or reconnects) the server first when it is not up. */
  findTool(server: string, tool: string, signal: AbortSignal): Promise<McpToolSummary>;
  callTool(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; progress?: (message: string) => void },
  ): Promise<ToolOutput>;
  /** Resources (and templates) of one server, or of every connected server. */
  listResources(server: string | undefined, signal: AbortSignal): Promise<ToolOutput>;
  readResource(server: string, uri: string, signal: AbortSignal): Promise<ToolOutput>;
  /** Loads deferred tools into the pool for the rest of the session; returns the names loaded. */
  loadTools(names: readonly string[]): string[];
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
