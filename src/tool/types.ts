import type { z } from 'zod';
import type { AgentKind, ApprovalCategory, Mode, Profile } from '../config/types.js';
import type { PermissionDecision, PermissionEngine, PermissionSubject } from '../permission/types.js';
import type { AgentInteraction } from './context/agent.js';
import type { SubagentAccess } from './context/agents.js';
import type { BackgroundCommand } from './context/background_commands.js';
import type { BrowserHost } from './context/browser.js';
import type { ConversationAccess } from './context/conversation.js';
import type { DeferredToolAccess } from './context/deferred_tools.js';
import type { EditorAccess } from './context/editor.js';
import type { LanguageServerAccess } from './context/language_servers.js';
import type { McpAccess } from './context/mcp.js';
import type { MessageAccess } from './context/messages.js';
import type { PeerAccess } from './context/peers.js';
import type { PullRequestWebhookAccess } from './context/pull_requests.js';
import type { ScheduleAccess } from './context/schedules.js';
import type { BriefMode, Notifier, ReplAccess, SessionSettingsAccess } from './context/session_tools.js';
import type { SkillAccess } from './context/skills.js';
import type { TaskSpawner } from './context/spawned_tasks.js';
import type { BackgroundTask } from './context/tasks.js';
import type { TeamAccess } from './context/teams.js';
import type { ModelAccess, WebAccess } from './context/web.js';
import type { WorkflowAccess } from './context/workflows.js';
import type { WorkspaceMove } from './context/workspace_move.js';
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
  /** Whether at least one Markdown workflow exists (load_workflow needs one). */
  hasWorkflows: boolean;
  /** Whether a language server can be started (find_references, rename). */
  languageServers: boolean;
  /** Headless `--json-schema` runs get structured_output. */
  jsonSchema: boolean;
  /** Whether this agent may start child agents (it is above `agents.maxDepth`). */
  childAgents: boolean;
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
  /** Kept for the lead in coordinator mode, which leaves it only such tools: it delegates, it does not work itself. */
  coordinator?: boolean;
  /** Environment checks: a connected MCP server, a skill, a language server, a --json-schema run, depth left for children. */
  requires?: readonly ('mcp' | 'skills' | 'workflows' | 'languageServer' | 'jsonSchema' | 'childAgents')[];
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
/**
 * A tool's own permission verdict. `checkedFiles`: the files it was reached for (a glob's matches
 * when the check ran); the pipeline hands them to the call, which then acts on exactly these.
 */
export type PermissionCheck = PermissionDecision & { checkedFiles?: readonly string[] };

export interface ToolContext {
  cwd: string;
  /** Set for the call only: the files its tool's permission check judged (`PermissionCheck`). */
  checkedFiles?: readonly string[];
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
   * Plan mode (`agentMode`) it is the read-only sandbox; `workspace` gives one command another
   * writable root (a new worktree's setup). `cleanup()`, once the command has ended, may return
   * a line saying what it undid at protected paths (for the result).
   */
  sandbox?: {
    wrap(
      argv: string[],
      cwd: string,
      call?: { agentMode?: Mode; workspace?: string },
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
  /** The built-in tools held back from the model's tool list until tool_search loads them. */
  deferredTools?: DeferredToolAccess;
  /** The schedule services (cron_*, remote_trigger), made on the first call. */
  schedules?: () => ScheduleAccess;
  /** Reports progress of a long call (shown by clients). */
  progress?: (message: string) => void;
  /** The agent running the call, for the conversation tools. */
  interaction?: AgentInteraction;
  /** The MCP client, when MCP servers are configured (the MCP tools use it). */
  mcp?: McpAccess;
  /** The running agent's children (use_subagent, use_subagents); absent where no child may start. */
  agents?: SubagentAccess;
  /** The roster send_message reaches: children, teams, peers. */
  messages?: MessageAccess;
  /** Moves the session into a worktree and back (enter_worktree, exit_worktree); absent where it cannot move. */
  workspaceMove?: WorkspaceMove;
  /** The teams of team_create / team_delete (feature `swarms`). */
  teams?: TeamAccess;
  /** The other lathe processes of this user (feature `peers`). */
  peers?: PeerAccess;
  /** Starts spawn_task's independent `lathe -p` runs. */
  spawner?: TaskSpawner;
  /** The session's skills (load_skill); absent where there are none. */
  skills?: SkillAccess;
  /** The session's workflows and workflow scripts (load_workflow, run_workflow). */
  workflows?: WorkflowAccess;
  /** web_fetch and web_search: settings, the page cache, the resolver. */
  web?: WebAccess;
  /** The agent's model, for tools that ask it something (web_fetch's `prompt`, native search). */
  models?: ModelAccess;
  /** The session's browser (browser_action). */
  browser?: BrowserHost;
  /** The image model generate_image draws with (settings `images.model`), and the environment its key is read from. */
  images?: { model?: string; env: NodeJS.ProcessEnv };
  /** The process's language servers (lsp, find_references, rename, diagnostics after edits). */
  languageServers?: LanguageServerAccess;
  /**
   * Runs another tool through the whole pipeline (validation, hooks, permissions, budgeting) as a
   * call of the model's would run; set for the call only (repl's helpers use it).
   */
  callTool?(name: string, input: unknown): Promise<ToolResult>;
  /** Concise-output mode (brief). */
  brief?: BriefMode;
  /** The session's settings as config reads and changes them. */
  sessionSettings?: SessionSettingsAccess;
  /** Desktop and terminal notifications (push_notification). */
  notifier?: Notifier;
  /** The session's JavaScript REPL (repl). */
  repl?: ReplAccess;
  /** The running agent's conversation (ctx_inspect, snip); absent when a tool runs alone. */
  conversation?: ConversationAccess;
  /** The session's webhook receiver and pull-request subscriptions (subscribe_pr, feature `github_webhooks`). */
  pullRequests?: PullRequestWebhookAccess;
  /** The program driving lathe (an editor): its buffers and terminal, used where it offers them. */
  editor?: EditorAccess;
  /** The id of the call being run; set for the call only. */
  callId?: string;
}

/**
 * What a tool does, in the Agent Client Protocol's kinds (so an editor integration maps them one to
 * one), plus `conversation` (talks to the user: questions, plans, reports) and `agent` (runs agents).
 */
export type ToolKind =
  | 'read'
  | 'search'
  | 'edit'
  | 'delete'
  | 'move'
  | 'execute'
  | 'fetch'
  | 'think'
  | 'conversation'
  | 'agent'
  | 'other';

/** The folders a call's paths are relative to: enough to say what it will change before it runs. */
export type ChangeContext = Pick<ToolContext, 'cwd' | 'workspace' | 'editor'>;

/** What a call will change, computed by the tool's own engine before it runs (approvals show it). */
export interface ChangePreview {
  /** The files it changes, as the diff names them. */
  paths: string[];
  /** A unified diff of the change (a deleted file shows as `(deleted)`). */
  diff: string;
  /** Each file whole, before and after (`newText` null: deleted); paths absolute, for editors' previews. */
  files?: Array<{ path: string; oldText: string | null; newText: string | null }>;
}

export interface ToolDefinition<I = unknown> {
  name: string;
  aliases?: readonly string[];
  inputSchema: z.ZodType<I>;
  /** Standard description for the model. */
  description: string;
  /** Short description for the Lite profile (falls back to `description`). */
  liteDescription?: string;
  availability: Availability;
  /** What the tool does; every consumer (UI, MCP server, compaction, permissions) derives from it. */
  kind: ToolKind;
  /** Talks to the user through a running agent (a question, a plan): not offered by `lathe mcp serve`. */
  needsAgent?: boolean;
  /**
   * Rarely used: while tool_search is offered, the model is given only its name and the first
   * sentence of its description (in tool_search's), and its definition once tool_search loads it.
   */
  deferred?: boolean;
  /** Strict Plan Mode refuses its calls that Plan mode does not allow (`planModeAllowed`) outright, without asking. */
  refusedInStrictPlan?: boolean;
  /** Result budget in characters; over it, the result is saved to a file and previewed. */
  maxResultChars?: number;
  /** A failing call cancels the other calls of its parallel batch (shell commands). */
  cancelsSiblingsOnError?: boolean;
  /**
   * What the permission engine looks at. Default: derived from `kind`, `touchedPaths` and the
   * paths the input names (`declaredSubject`), failing closed; a tool of a reading, changing or
   * running kind that touches nothing the engine judges says so (`touchesNothing`).
   */
  permissionSubject?(input: I, ctx: ToolContext, facts: CallFacts): PermissionSubject;
  isEnabled?(ctx: PoolConditions): boolean;
  /** The contract's three flags, as the reference table gives them (`dynamic` marks those that depend on the input). */
  isReadOnly?(input: I, facts: CallFacts): boolean;
  isConcurrencySafe?(input: I, facts: CallFacts): boolean;
  isDestructive?(input: I, facts: CallFacts): boolean;
  /**
   * lathe's own fact: Plan mode lets the call run without asking, as it changes nothing of the
   * workspace (it reads, or changes only lathe's own state: a read position, the context, a session
   * setting). Also what read-only subagents keep and what takes no checkpoint. Default: `isReadOnly`.
   */
  planModeAllowed?: OwnFact<I>;
  /** lathe's own fact: the call joins a parallel batch of the executor. Default: `isConcurrencySafe`. */
  runsInParallel?: OwnFact<I>;
  /**
   * lathe's own fact: the call may delete, overwrite or end what exists (a file's content, a process,
   * a schedule), not only add: MCP's `destructiveHint`. Default: `isDestructive`.
   */
  destroysExisting?: OwnFact<I>;
  checkPermissions?(input: I, ctx: ToolContext): PermissionCheck | Promise<PermissionCheck>;
  toAutoClassifierInput?(input: I): string;
  /** The name people see for the tool and its calls (`Read`, `Run`), in the UI, approvals and MCP titles; default: its name. */
  userFacingName?(input: I | undefined): string;
  /** The verb of its approval question, where the user-facing name does not read as one (`Apply a patch to`). */
  askVerb?: string;
  /**
   * How a client previews a finished call's result collapsed: its first lines (default), its last
   * lines (command output), a diff stat (default for tools that change files), or a line count.
   */
  resultView?: 'head' | 'tail' | 'diff' | 'lineCount';
  /**
   * What one call is about, in a few words (`src/a.ts:10+20`, `npm test`), paths shown through
   * `show`; default: the `path` argument, else the arguments as JSON.
   */
  detail?(input: I, show: (path: string) => string): string;
  /**
   * The files a call will change, as given (relative to `cwd` or absolute); declared by exactly
   * the tools that change files (a glob-wide change gives its glob).
   */
  touchedPaths?(input: I, ctx: ChangeContext): string[];
  /** The change a call would make, by the tool's own engine; undefined when it would fail (the call says why). */
  describeChange?(input: I, ctx: ChangeContext): Promise<ChangePreview | undefined>;
  /**
   * A call that works in a fresh workspace holding `files` (each read first, as a model would):
   * the declaration test runs it to check the kind and `touchedPaths` against what the call does.
   * Tools that read, search or change files give one.
   */
  example?: { files?: Record<string, string>; input: I };
  /**
   * The parse step's facts beyond the schema (the parsed shell command) that the contract methods
   * answer from; a failure is a fact ("not parsed"), never thrown. Default: none.
   */
  parseFacts?(input: I): Promise<CallFacts>;
  /** Tool-specific checks after the schema, before permissions; returns an error message or nothing. */
  validateInput?(input: I, ctx: ToolContext): string | undefined | Promise<string | undefined>;
  call(input: I, ctx: ToolContext): Promise<ToolOutput>;
  /**
   * Which of the three flags depend on the input ("dynamic" in listings; a dynamic `destructive`
   * means some calls are). lathe's own facts say it by their form: a function is decided per call.
   */
  dynamic?: { readOnly?: boolean; concurrencySafe?: boolean; destructive?: boolean };
}

/** A fact of lathe's own: true or false for every call, or decided from the input. */
export type OwnFact<I> = boolean | ((input: I, facts: CallFacts) => boolean);

/** lathe's own facts of a tool, apart from the contract's three flags. */
export type OwnFactName = 'planModeAllowed' | 'runsInParallel' | 'destroysExisting';

/** A tool with every contract member filled in. */
export interface Tool<I = unknown>
  extends Required<
    Omit<
      ToolDefinition<I>,
      | 'liteDescription'
      | 'permissionSubject'
      | 'validateInput'
      | 'dynamic'
      | 'cancelsSiblingsOnError'
      | 'parseFacts'
      | 'touchedPaths'
      | 'describeChange'
      | 'askVerb'
      | 'detail'
      | 'example'
      | OwnFactName
    >
  > {
  example?: { files?: Record<string, string>; input: I };
  askVerb?: string;
  detail?(input: I, show: (path: string) => string): string;
  liteDescription: string;
  cancelsSiblingsOnError: boolean;
  /** Which facts, the three flags and lathe's own, depend on the input. */
  dynamic: Record<'readOnly' | 'concurrencySafe' | 'destructive' | OwnFactName, boolean>;
  planModeAllowed(input: I, facts: CallFacts): boolean;
  runsInParallel(input: I, facts: CallFacts): boolean;
  destroysExisting(input: I, facts: CallFacts): boolean;
  permissionSubject(input: I, ctx: ToolContext, facts: CallFacts): PermissionSubject;
  validateInput(input: I, ctx: ToolContext): string | undefined | Promise<string | undefined>;
  parseFacts?(input: I): Promise<CallFacts>;
  touchedPaths?(input: I, ctx: ChangeContext): string[];
  /** The change a call would make; undefined for tools that change no file. */
  describeChange(input: I, ctx: ChangeContext): Promise<ChangePreview | undefined>;
  /** Built-in or from an MCP server (external tools come after built-ins in the pool). */
  source: 'builtin' | 'external';
}
