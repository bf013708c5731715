import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { HookEventName, HookFunction } from '../config/hooks/types.js';
import type { AgentKind, ApprovalCategory, Effort, Mode, Profile, SettingsLayer } from '../config/types.js';
import type { InProcessMcpServer } from '../mcp/config.js';
import type { Elicit } from '../mcp/elicitation.js';
import type { SubagentTag } from '../tool/context/agents.js';
import type { EditorAccess } from '../tool/context/editor.js';
import type { ChangePreview, ImageBlock, Tool, ToolKind } from '../tool/types.js';

/** What a program answers when a call would ask a person (`canUseTool`). */
export type PermissionAnswer =
  | { behavior: 'allow'; updatedInput?: Record<string, unknown>; remember?: RememberScope }
  | { behavior: 'deny'; message: string; remember?: RememberScope };

/**
 * Where an answer's `suggestedRules` are kept, as allow (or deny) rules: the running session only,
 * or also the project's settings (`.agents/settings.json`) or the user's.
 */
export type RememberScope = 'session' | 'project' | 'user';

/** What `canUseTool` is told besides the tool's name and input. */
export interface PermissionQuestion {
  signal: AbortSignal;
  /** Why it asks ("execute_command needs approval (category executeAll)"). */
  reason: string;
  category?: ApprovalCategory;
  toolUseId: string;
  /** The child agent whose call it is; absent for the run's own agent. */
  agent?: SubagentTag;
  /** What the tool does (its declaration's kind: `read`, `edit`, `execute`, …). */
  kind: ToolKind;
  /** What the call would change, by the tool's own engine (a diff, and each file before and after). */
  change?: ChangePreview;
  /** The rules an answer with `remember` keeps (`execute_command(npm test)`); empty when none can stop the asking. */
  suggestedRules: string[];
  /** The ask is one no rule can silence (a protected path, Plan mode, a command without the sandbox). */
  sticky: boolean;
}

/**
 * Answers the calls that would ask a person: allow, allow with a changed input (validated, and a
 * deny rule still refuses it), or deny with a reason the model reads. Deny rules refuse without
 * asking; calls the rules allow run without asking.
 */
export type CanUseTool = (
  toolName: string,
  input: unknown,
  question: PermissionQuestion,
) => Promise<PermissionAnswer> | PermissionAnswer;

/** Hook functions for one event: those of a `matcher` (a tool name or regular expression; none: all). */
export interface HookFunctionGroup {
  matcher?: string;
  hooks: HookFunction[];
  /** Seconds each function may take (default 60). */
  timeout?: number;
  /** A function that throws or times out blocks the action (default: going on without it). */
  failClosed?: boolean;
}

/** An MCP server of the program: a settings entry (`command` / `url`), or a server object of the MCP SDK. */
export type McpServerOption =
  | InProcessMcpServer
  | { type: 'sdk'; instance: InProcessMcpServer }
  | Record<string, unknown>;

/** The options of `query()`; every one may be left out. */
export interface QueryOptions {
  /** The working folder (default: process.cwd()). */
  cwd?: string;
  /** `provider/model`, or a ready AI SDK language model object (any provider). */
  model?: string | LanguageModelV3;
  /** The model's endpoint and key, for a `provider/model` name. */
  baseUrl?: string;
  apiKey?: string;
  effort?: Effort;
  profile?: Profile;
  mode?: Mode;
  /** Feature switches: `name` turns one on, `-name` off. */
  features?: string[];
  /** A settings layer applied last, as the command line is. */
  settings?: SettingsLayer;
  /** Permission rules added to the settings' allow and deny lists (`read_file`, `execute_command(npm test*)`). */
  allowedTools?: string[];
  disallowedTools?: string[];
  /** Approval categories whose asks are answered yes, or "all". */
  approve?: readonly ApprovalCategory[] | 'all';
  /** Every ask answered yes (deny rules, protected paths and Plan mode still hold). */
  yolo?: boolean;
  /** Trust the folder for this run (its settings, hooks and MCP servers load). */
  trust?: boolean;
  /** More folders the tools may read and edit. */
  addDirs?: string[];
  canUseTool?: CanUseTool;
  /**
   * Answers an MCP server's question (elicitation): a form's fields (accept with `content`),
   * a link to open (accept once it is opened), or decline / cancel. Without it the servers'
   * questions take the next `answers` entry, and are declined when none is left.
   */
  elicit?: Elicit;
  /** Hook functions by event, beside the hooks of the settings. */
  hooks?: Partial<Record<HookEventName, HookFunctionGroup[]>>;
  /** MCP servers by name, beside those of the settings (a name given here replaces one there). */
  mcpServers?: Record<string, McpServerOption>;
  /** The program's own tools, made with `tool()`. */
  tools?: Tool[];
  /**
   * The program's buffers and terminal (an editor's): file text is read and edits written through
   * them, commands run in its terminal; lathe's permissions, protected paths and sandbox still decide.
   */
  editor?: EditorAccess;
  /** Instructions that replace lathe's own system prompt (environment and AGENTS.md still follow). */
  systemPrompt?: string;
  appendSystemPrompt?: string;
  /** Model requests per prompt before the run stops (`max_turns`); default no limit. */
  maxTurns?: number;
  /** Input + output tokens the run may spend (its own requests and its children's; `max_tokens`). */
  maxTokens?: number;
  /** Dollars the run may spend (its own requests and its children's; `max_cost`). */
  maxBudgetUsd?: number;
  /** Resume this session (its id or a unique part of it). */
  resume?: string;
  /** Resume the latest session of the folder. */
  continue?: boolean;
  /** Start a new session from this one's history (its id or a unique part of it); it is left as it is. */
  fork?: string;
  /** Write no session log into the sessions folder (`--no-session`). */
  noSession?: boolean;
  /** The id of the new session (`20260101-120000-a1b2c3`); default a new one. */
  sessionId?: string;
  /** Aborting it interrupts the run, as `interrupt()` does. */
  abortController?: AbortController;
  /** The final answer must be an object of this JSON Schema (`structured_output`). */
  jsonSchema?: Record<string, unknown>;
  /** Answers to the model's questions and plan approvals, in order ("yes", "no: reason"). */
  answers?: string[];
  /** Images sent with a string prompt: file paths or ready image blocks. */
  images?: Array<string | ImageBlock>;
  /** Lines lathe has for a person (warnings, MCP problems, hook messages); default: stderr, after `lathe: `. */
  stderr?: (line: string) => void;
  /** Where lathe keeps sessions and settings (default `$LATHE_HOME`, `~/.lathe`). */
  documentsRoot?: string;
  env?: NodeJS.ProcessEnv;
}

/** Options of the command line's own runs, beyond the program's. */
export interface HeadlessQueryOptions extends QueryOptions {
  /** A spawned task's run (no spawn_task inside). */
  agentKind?: AgentKind;
  /** The lathe command that schedules and triggers start headless runs with. */
  latheBin?: string;
}
