import type {
  AgentRuntime,
  ChildRuntimeOptions,
  IsolatedPlace,
  SubagentSetup,
} from '../agent/agent_runtime.js';
import type { ConversationMessage } from '../agent/model_stream.js';
import type { AgentType } from '../config/agent_types/index.js';
import type { CommandCatalog } from '../config/commands/index.js';
import type { HookGroup } from '../config/hooks/types.js';
import type { RuleSet } from '../config/rules/index.js';
import type { ResolvedSettings } from '../config/settings.js';
import type { SkillCatalog } from '../config/skills/index.js';
import type { WorkspaceTrust } from '../config/trust.js';
import type { AgentKind, Mode } from '../config/types.js';
import type { AgentHooks } from '../hooks/index.js';
import type { LanguageServers } from '../lsp/language_servers.js';
import type { PeerEventHandler } from '../messaging/peers.js';
import type { MessageRouter } from '../messaging/router.js';
import type { TeamMembers } from '../messaging/team_members.js';
import type { TeamStore } from '../messaging/team_store.js';
import type { RulePermissionEngine } from '../permission/engine.js';
import type { Place } from '../permission/place.js';
import type { SandboxDescription, SandboxStatus } from '../permission/sandbox/bubblewrap.js';
import type { ScheduledPromptHandler } from '../schedule/schedule_host.js';
import type { EditorAccess } from '../tool/context/editor.js';
import type { McpAccess } from '../tool/context/mcp.js';
import type { RecipientSource } from '../tool/context/messages.js';
import type { BriefMode } from '../tool/context/session_tools.js';
import type { BackgroundTask } from '../tool/context/tasks.js';
import type { WorkspaceMove } from '../tool/context/workspace_move.js';
import type { ToolExecution } from '../tool/executor.js';
import type { ApprovalAnswer, ApprovalRequest, ToolCall } from '../tool/run_call.js';
import type { PoolConditions, ProviderCapabilities, Tool, ToolResult } from '../tool/types.js';
import type { CheckpointService } from './checkpoint_service.js';
import type { ConfigurationOptions } from './configuration.js';
import type { BackgroundWork } from './services.js';
import type { ExecutionOptions } from './tool_context.js';

/** What a runtime is made with; where it works and its settings come from `ConfigurationOptions`. */
export interface RuntimeOptions extends ConfigurationOptions {
  yolo?: boolean;
  capabilities?: Partial<ProviderCapabilities>;
  agentKind?: AgentKind;
  /** Tools from MCP servers; they come after the built-ins and never replace one. */
  externalTools?: Tool[];
  /** The MCP client the MCP tools use (servers connect later: see `setExternalTools`). */
  mcp?: McpAccess;
  /** Headless `--json-schema` runs offer structured_output. */
  jsonSchema?: boolean;
  /** Asks the user; without it (headless), an ask is a denial. */
  askUser?: (request: ApprovalRequest) => Promise<ApprovalAnswer>;
  sessionId?: string;
  /** More folders the tools may read and edit as they do the workspace (`--add-dir`). */
  addDirs?: string[];
  /** Where the tools save files (results, command output) instead of the session's folder. */
  sessionDir?: string;
  /** Agent types beyond the discovered ones, for clients of the SDK; a discovered type of the same name wins. */
  agentTypes?: AgentType[];
  /** The lathe command (its JS file) that schedules and triggers start headless runs with; the CLI passes its own. */
  latheBin?: string;
  /** A program's own tools (the SDK's `tool()`): they join the pool after the built-ins, for children too. */
  programTools?: Tool[];
  /** A program's hook functions (the SDK's `hooks`), after the hooks of the settings. */
  hookGroups?: HookGroup[];
  /** The program's buffers and terminal (the SDK's `editor`), for this runtime's tools and its children's. */
  editor?: EditorAccess;
  /**
   * The runtime's calls are typed by the user in their own shell (`lathe tool NAME`), not made by
   * a model: the user sees the files, so edit_file and notebook_edit need no read first. A child
   * agent's calls are the model's: its runtime keeps the read-before-edit rule.
   */
  callsFromUserShell?: boolean;
}

export interface Runtime {
  /** Where the session started (its settings, trust and sessions belong to this folder). */
  readonly cwd: string;
  readonly workspace: string;
  /**
   * Where the tools work now: the workspace, or the worktree enter_worktree moved the session
   * into. `place.moveTo(worktree)` moves the cwd, the permission workspace and the sandbox's
   * writable root together (a child isolated in a worktree of its own starts there).
   */
  readonly place: Place & WorkspaceMove;
  readonly documentsRoot: string;
  readonly sessionId: string;
  readonly sessionDir: string;
  readonly settings: ResolvedSettings;
  /** Whether the user trusts the workspace, and what of it waits for that trust. */
  readonly trust: WorkspaceTrust;
  /** The session's hooks (settings `hooks`): `hooks.set.list()` for `/hooks`, `hooks.set.onWarning` for failing ones. */
  readonly hooks: AgentHooks;
  readonly permissions: RulePermissionEngine;
  /** Problems with settings, rules or switches: reported, never fatal. */
  readonly warnings: string[];
  /** The rule files of the session, which join the system prompt (`/rules` lists them). */
  readonly rules: RuleSet;
  readonly conditions: PoolConditions;
  /** The tools offered under the current conditions, in pool order. */
  readonly pool: Tool[];
  /** The tools whose definitions the model is given: the pool less the deferred tools not loaded yet. */
  readonly definedTools: Tool[];
  /** The skills found at the start (Agent Skills folders), with their warnings already in `warnings`. */
  readonly skills: SkillCatalog;
  /** Runs one tool through the whole pipeline: validation, permissions, executor, budgeting. */
  runTool(name: string, input: unknown): Promise<ToolResult>;
  /** Runs several calls as one model message would: safe ones in parallel, results in call order. */
  runTools(calls: ToolCall[]): Promise<ToolResult[]>;
  /** Switches Plan/Act; the pool and the permission engine follow. */
  setMode(mode: Mode): void;
  /** Ends every command still running in the background (at exit). */
  stopBackgroundCommands(): void;
  /** Sends the commands the model is waiting for to the background; returns how many. */
  detachForegroundCommands(): number;
  /**
   * Installs the client's handler of scheduled prompts (an interactive client queues each as a
   * user message) and starts the cron scheduler (feature `triggers`) and the remote-trigger
   * endpoint (`remote_triggers`). Without a handler, due prompts start headless runs.
   * Returns a function that removes the handler.
   */
  onScheduledPrompt(handler: ScheduledPromptHandler): () => void;
  /**
   * send_message's router; `messages.addSource(source)` adds recipients (an agent's children)
   * and returns the function that removes them.
   */
  readonly messages: MessageRouter;
  /** The session's teams (feature `swarms`): `teams.takeUnread(member)` is a member's new mail. */
  readonly teams: TeamStore | undefined;
  /**
   * Installs the client's handler of messages from other lathe processes and opens this one's
   * inbox (feature `peers`; without it, nothing happens). Returns a function that removes the
   * handler; messages that come meanwhile wait for the next one.
   */
  onPeerMessage(handler: PeerEventHandler): () => void;
  /**
   * Lines for the user about webhook requests (a refused one, a delivery; feature
   * `github_webhooks`). Returns a function that stops them.
   */
  onWebhookNotice(report: (line: string) => void): () => void;
  /** Ends everything the runtime started: background commands, tasks, schedules, endpoint, runs. */
  dispose(): Promise<void>;
  /** Whether commands run in the OS sandbox here (probed once). */
  checkSandbox(): Promise<SandboxStatus>;
  /** The sandbox in detail (capabilities dropped, user namespace), for `lathe doctor`. */
  describeSandbox(): Promise<SandboxDescription>;
  /**
   * One line about commands and the sandbox for the start of a run — they ask (a person is
   * there) or are refused, and how to fix it — or undefined when they run sandboxed or the user
   * turned the sandbox off.
   */
  sandboxNotice(): Promise<string | undefined>;
  /** How many commands were refused because the sandbox is unavailable (fail closed). */
  readonly sandboxRefusals: number;
  /** Background commands and tasks still running, to say what ends when a client exits. */
  runningBackgroundWork(): BackgroundWork[];
  /** The model's capabilities decide some tools (images, browser use); the pool follows. */
  setCapabilities(capabilities: Partial<ProviderCapabilities>): void;
  /** A streaming execution for one model message: calls are added as they arrive. */
  createExecution(options?: ExecutionOptions): ToolExecution;
  /**
   * MCP servers connect after start: their tools join the pool (after the built-ins) as they
   * come; `deferred` names the tools tool_search holds back.
   */
  setExternalTools(tools: Tool[], mcp?: { access: McpAccess; deferred?: readonly string[] }): void;
  /** The MCP client once servers are attached: their states and tools (`/mcp`). */
  readonly mcp: McpAccess | undefined;
  /** The tasks of task_create and the background children, by id. */
  readonly tasks: Map<string, BackgroundTask>;
  /** The child agent types, limits and depth; absent with the `subagents` feature off. */
  readonly subagents?: SubagentSetup;
  /** A runtime for a child agent of this runtime's agent (see `createChildRuntime`). */
  child(options: ChildRuntimeOptions): AgentRuntime;
  /** A new git worktree for a child with `isolation: "worktree"` (see `AgentRuntime.isolate`). */
  isolate(name: string): Promise<IsolatedPlace>;
  /** Makes an agent's children reachable by send_message (see `AgentRuntime.addRecipients`). */
  addRecipients(source: RecipientSource): () => void;
  /** Which team members run, and their mail (feature `swarms`; see `AgentRuntime.teamMembers`). */
  readonly teamMembers?: TeamMembers;
  /** The `/name` commands (custom command files, workflows) and the workflow scripts. */
  readonly commands: CommandCatalog;
  /** Concise-output mode (the brief tool): the agent's system prompt follows it. */
  readonly brief: BriefMode;
  /** The workspace's checkpoints (`checkpoints.off` says why there are none): /undo, /rewind. */
  readonly checkpoints: CheckpointService;
  /** A checkpoint before a user's prompt (see `AgentRuntime.checkpointTurn`). */
  checkpointTurn(
    prompt: string,
    history: readonly ConversationMessage[],
    startAfter?: Promise<unknown>,
  ): Promise<string | undefined>;
  /** Starts the language servers the workspace calls for (see `AgentRuntime.warmUp`). */
  warmUp(startAfter: Promise<unknown>): void;
  /** The session's language servers, shared with its children. */
  readonly languageServers: LanguageServers;
}
