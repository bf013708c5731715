import type { AgentLimits } from '../config/agent_limits.js';
import type { AgentType } from '../config/agent_types/index.js';
import type { CommandCatalog } from '../config/commands/catalog.js';
import type { ContextSettings } from '../config/context_settings.js';
import type { SessionRules } from '../config/rules/index.js';
import type { SkillCatalog } from '../config/skills/catalog.js';
import type { Mode } from '../config/types.js';
import type { AgentHooks } from '../hooks/index.js';
import type { AgentInteraction } from '../tool/context/agent.js';
import type { SubagentAccess, SubagentTag } from '../tool/context/agents.js';
import type { ConversationAccess } from '../tool/context/conversation.js';
import type { RecipientSource } from '../tool/context/messages.js';
import type { BackgroundTask } from '../tool/context/tasks.js';
import type { ModelAccess } from '../tool/context/web.js';
import type { ToolExecution } from '../tool/executor.js';
import type { ToolCall } from '../tool/run_call.js';
import type { PoolConditions, ProviderCapabilities, Tool, ToolResult } from '../tool/types.js';
import type { Worktree } from '../worktree/index.js';
import type { ConversationMessage } from './model_stream.js';

/** What the agent needs of a runtime (structurally: this layer does not import the runtime). */
export interface AgentRuntime {
  readonly cwd: string;
  readonly workspace: string;
  readonly documentsRoot: string;
  readonly sessionId: string;
  /** Where the tools save files (results, command and task output). */
  readonly sessionDir: string;
  readonly conditions: PoolConditions;
  /** The session's rule files; the active ones join the system prompt. Absent: none. */
  readonly rules?: SessionRules;
  /** The tools offered now, in pool order; it follows the mode. */
  readonly pool: readonly Tool[];
  /** The tools whose definitions the model is given (the pool less deferred tools not loaded yet); default the pool. */
  readonly definedTools?: readonly Tool[];
  /** The session's settings the agent reads: `context.compactAt`. Absent: the defaults. */
  readonly settings?: { readonly context: ContextSettings };
  /** The session's skills (the system prompt lists those the model may load). */
  readonly skills?: SkillCatalog;
  setMode(mode: Mode): void;
  /** A streaming execution for one model message: calls are added as they arrive. */
  createExecution(options: {
    interaction?: AgentInteraction;
    signal?: AbortSignal;
    onStart?: (call: ToolCall) => void;
    onResult?: (call: ToolCall, result: ToolResult) => void;
    /** A running call's progress. */
    onProgress?: (call: ToolCall, message: string) => void;
    /** The agent's children, for use_subagent / use_subagents. */
    agents?: SubagentAccess;
    /** The agent's model, for tools that ask it something. */
    models?: ModelAccess;
    /** The agent's conversation, for ctx_inspect and snip. */
    conversation?: ConversationAccess;
  }): ToolExecution;
  /** The session's hooks for this agent's own events (start, prompt, stop, compaction). */
  readonly hooks?: AgentHooks;
  /** The task table that background children join (task_get, task_output, task_stop read them). */
  readonly tasks?: Map<string, BackgroundTask>;
  /** Makes an agent's children reachable by send_message; returns the function that removes them. */
  addRecipients?(source: RecipientSource): () => void;
  /**
   * The session's teams as a child is one of their members: `running` marks it running under
   * its name (team_delete waits for it) until the returned function is called; `takeMail` is
   * its unread mail as one note, or undefined.
   */
  readonly teamMembers?: {
    markRunning(name: string): () => void;
    takeMail(name: string): Promise<string | undefined>;
  };
  /** What children of this runtime's agent can be and may spend; absent where none may start. */
  readonly subagents?: SubagentSetup;
  /** A runtime for a child agent; present with `subagents`. */
  child?(options: ChildRuntimeOptions): AgentRuntime;
  /**
   * A new git worktree for a child with `isolation: "worktree"` (the repository's setup run in
   * the sandbox); throws with the reason when none can be made. Absent where none can be.
   */
  isolate?(name: string): Promise<IsolatedPlace>;
  /** The session's `/name` commands and workflows, shared by the whole tree of agents. */
  readonly commands?: CommandCatalog;
  /** Concise-output mode (the brief tool); the system prompt asks for short replies while it is on. */
  readonly brief?: { readonly on: boolean };
  /**
   * A checkpoint of the workspace before a user's prompt, with the conversation before it
   * (`/undo`, `/rewind`), taken once `startAfter` settles; resolves to a line to show when none
   * could be taken. Absent for children.
   */
  checkpointTurn?(
    prompt: string,
    history: readonly ConversationMessage[],
    startAfter?: Promise<unknown>,
  ): Promise<string | undefined>;
  /**
   * Starts what the session will likely need (the language servers the workspace's root
   * markers call for) once `startAfter` settles: the prompt's first request is out, so it is
   * never held back. Absent for children.
   */
  warmUp?(startAfter: Promise<unknown>): void;
}

/** A worktree a child works in, and how to leave it once the child has ended. */
export interface IsolatedPlace {
  worktree: Worktree;
  /** Commits what the child changed on the worktree's branch and removes the folder (or both, when nothing changed). */
  finish(): Promise<{ outcome: 'removed' | 'committed' | 'kept'; diffstat?: string }>;
}

export interface SubagentSetup {
  /** This runtime's depth: 0 for the user's agent, 1 for its children. */
  readonly depth: number;
  /** Every type a child can be, built-in first. */
  readonly types: readonly AgentType[];
  readonly limits: AgentLimits;
}

/**
 * A child's runtime: the parent's workspace, permission rules, sandbox, MCP servers and task
 * table, with a session, a read-before-edit memory and a pool of its own.
 */
export interface ChildRuntimeOptions {
  /** The child; `tag.id` is its session id too. */
  tag: SubagentTag;
  /** The tools of its type, from what a subagent may be offered. */
  keepTool(tool: Tool): boolean;
  /** Its model's capabilities, when it runs another model than the parent's. */
  capabilities?: Partial<ProviderCapabilities>;
  /** The worktree it works in (its cwd, permission workspace and sandbox root), when isolated. */
  worktree?: Worktree;
}
