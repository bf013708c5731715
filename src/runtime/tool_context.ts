import type { CommandCatalog } from '../config/commands/catalog.js';
import type { SkillCatalog } from '../config/skills/catalog.js';
import type { RulePermissionEngine } from '../permission/engine.js';
import { callLabel } from '../tool/call_label.js';
import type { AgentInteraction } from '../tool/context/agent.js';
import type { SubagentAccess } from '../tool/context/agents.js';
import type { ConversationAccess } from '../tool/context/conversation.js';
import type { DeferredToolAccess } from '../tool/context/deferred_tools.js';
import type { EditorAccess } from '../tool/context/editor.js';
import type { McpAccess } from '../tool/context/mcp.js';
import type { ModelAccess } from '../tool/context/web.js';
import { ToolExecution } from '../tool/executor.js';
import { findTool } from '../tool/pool.js';
import type { ReadTracker } from '../tool/read_tracker.js';
import {
  type ApprovalAnswer,
  type ApprovalRequest,
  type CallEnvironment,
  type CallHooks,
  parseInput,
  type ToolCall,
} from '../tool/run_call.js';
import type { PoolConditions, Tool, ToolContext, ToolResult } from '../tool/types.js';
import { appendWork, workEntry } from '../tool/work_record.js';
import { approvalEvents } from './approval_events.js';
import type { RuntimeConfiguration } from './configuration.js';
import type { RuntimePlace } from './place.js';
import type { RuntimeServices } from './services.js';
import { skillAccess } from './skill_access.js';

export interface ExecutionOptions {
  interaction?: AgentInteraction;
  signal?: AbortSignal;
  onStart?: (call: ToolCall) => void;
  onResult?: (call: ToolCall, result: ToolResult) => void;
  progress?: (message: string) => void;
  /** A running call's progress, by call (the agent shows it on the call's line). */
  onProgress?: (call: ToolCall, message: string) => void;
  /** The running agent's children (use_subagent, use_subagents). */
  agents?: SubagentAccess;
  /** The agent's model, for tools that ask it (web_fetch's `prompt`, web_search's native backend). */
  models?: ModelAccess;
  /** The running agent's conversation (ctx_inspect, snip). */
  conversation?: ConversationAccess;
}

/** What a runtime's tools share: settings, permission rules, the sandbox, background work. */
export interface SharedParts {
  configuration: RuntimeConfiguration;
  permissions: RulePermissionEngine;
  services: RuntimeServices;
  /** Where calls work: the home workspace or the worktree the session entered. */
  place: RuntimePlace;
  /** The session's skills, found once at its start. */
  skills?: SkillCatalog;
  /** The session's commands and workflows (load_workflow reads them). */
  commands?: CommandCatalog;
  /** The program's buffers and terminal, where it offers them (the SDK's `editor`). */
  editor?: EditorAccess;
}

/** What is a runtime's own: its session folder, its conditions, its memory of files read. */
export interface OwnParts {
  sessionDir: string;
  conditions: PoolConditions;
  readFiles: ReadTracker;
  mcp: McpAccess | undefined;
  /** The runtime's deferred built-ins (tool_search loads them). */
  deferredTools?: DeferredToolAccess;
  /** How this runtime's messages are signed (a child's name and id); the router's own (`lead`) when absent. */
  sender?: string;
}

/** The context a runtime's tool calls run in (the same shape for a user's agent and a child). */
export function toolContext(
  shared: SharedParts,
  own: OwnParts,
  extra: ExecutionOptions,
): Omit<ToolContext, 'signal'> {
  const { configuration, permissions, services, place } = shared;
  const { documentsRoot, settings } = configuration;
  return {
    // Read at each call: a call after enter_worktree works in the worktree.
    get cwd() {
      return place.cwd;
    },
    get workspace() {
      return place.workspace;
    },
    documentsRoot,
    sessionDir: own.sessionDir,
    conditions: own.conditions,
    permissions,
    readFiles: own.readFiles,
    backgroundCommands: services.backgroundCommands,
    // The writable root is the place's: a child in its own worktree writes there, not at home.
    sandbox: {
      wrap: (argv, cwd, call) =>
        services.sandbox.wrap(argv, cwd, { ...call, workspace: call?.workspace ?? place.workspace }),
    },
    sandboxGate: () => services.sandboxGate.decide(),
    maxOutputBytes: settings.commands.maxOutputBytes,
    tasks: services.background.tasks,
    schedules: services.background.schedules,
    mcp: own.mcp,
    ...(own.deferredTools ? { deferredTools: own.deferredTools } : {}),
    messages:
      own.sender === undefined ? services.messaging.router : services.messaging.router.signedAs(own.sender),
    teams: services.messaging.teams,
    peers: services.messaging.peers,
    spawner: services.spawner,
    browser: services.browser,
    images: { model: settings.images.model, env: configuration.env },
    languageServers: services.languageServers,
    ...(services.pullRequests ? { pullRequests: services.pullRequests } : {}),
    workspaceMove: place,
    interaction: extra.interaction,
    progress: extra.progress,
    ...(shared.commands ? { workflows: shared.commands } : {}),
    ...(extra.agents ? { agents: extra.agents } : {}),
    ...(shared.skills && shared.skills.all.length > 0
      ? { skills: skillAccess(shared.skills, permissions) }
      : {}),
    web: services.web,
    brief: services.sessionTools.brief,
    sessionSettings: services.sessionTools.sessionSettings,
    notifier: services.sessionTools.notifier,
    repl: services.sessionTools.repl,
    ...(extra.models ? { models: extra.models } : {}),
    ...(extra.conversation ? { conversation: extra.conversation } : {}),
    ...(shared.editor ? { editor: shared.editor } : {}),
  };
}

/**
 * A streaming execution of one model message's calls in a runtime (a user's agent or a child):
 * its pool, its context, and who answers its approvals.
 */
export function toolExecution(
  shared: SharedParts,
  own: OwnParts & {
    pool: readonly Tool[];
    askUser?: (request: ApprovalRequest) => Promise<ApprovalAnswer>;
    hooks?: CallHooks;
  },
  extra: ExecutionOptions,
): ToolExecution {
  return new ToolExecution({
    pool: own.pool,
    context: toolContext(shared, own, extra),
    askUser: own.askUser,
    approvals: approvalEvents(extra.interaction),
    hooks: own.hooks,
    checkpoint: checkpointBeforeCall(shared),
    signal: extra.signal,
    onStart: extra.onStart,
    onProgress: extra.onProgress,
    onResult: (call, result) => {
      recordWork(shared.place, own, call, result);
      extra.onResult?.(call, result);
    },
  });
}

/** Keeps the session's record of work (files changed, commands run, plans approved): verify_plan_execution reads it. */
function recordWork(
  place: RuntimePlace,
  own: OwnParts & { pool: readonly Tool[] },
  call: ToolCall,
  result: ToolResult,
): void {
  const tool = findTool(own.pool, call.name);
  const parsed = tool && parseInput(tool, call.input);
  if (!tool || !parsed?.ok) return;
  const entry = workEntry(tool, parsed.input, result, { cwd: place.cwd, workspace: place.workspace });
  if (entry) appendWork(own.sessionDir, entry);
}

/** The checkpoint step of the call pipeline: the workspace the call works in, labelled with the call. */
function checkpointBeforeCall(shared: SharedParts): CallEnvironment['checkpoint'] {
  const { services, place } = shared;
  if (services.checkpoints.off) return undefined;
  return (call, tool, input, files) => {
    const { verb, detail } = callLabel(tool, call.name, input, (path) => path);
    return services.checkpoints.beforeCall(place.workspace, `${verb} ${detail}`.slice(0, 200), files);
  };
}
