import { join } from 'node:path';
import type { AgentRuntime, ChildRuntimeOptions, SubagentSetup } from '../agent/agent_runtime.js';
import type { AgentType } from '../config/agent_types/index.js';
import type { RuleSet } from '../config/rules/index.js';
import { type AgentHooks, toolHooks } from '../hooks/index.js';
import type { RulePermissionEngine } from '../permission/engine.js';
import { agentSessionsDir } from '../session/ids.js';
import { ReadTracker } from '../tool/read_tracker.js';
import type { ApprovalAnswer, ApprovalRequest } from '../tool/run_call.js';
import type { Worktree } from '../worktree/index.js';
import { isolate } from './isolation.js';
import { RuntimePlace } from './place.js';
import type { PoolState } from './pool_state.js';
import { type ExecutionOptions, type SharedParts, toolExecution } from './tool_context.js';

/** What every runtime of one session's tree of agents shares with its children. */
export interface TreeParts extends SharedParts {
  /** The user's agent's pool: its built-in tools (made once) and the MCP servers' tools. */
  tools: PoolState;
  /** The session's rules: a child's reads make conditional rules join, and it follows the same rules. */
  rules: RuleSet;
  types: readonly AgentType[];
  /** A permission engine for another place (a child's worktree), with the user's rules. */
  permissionsAt(place: RuntimePlace): RulePermissionEngine;
  askUser?: (request: ApprovalRequest) => Promise<ApprovalAnswer>;
  /** The session's hooks: a child's calls and its start and stop run them too. */
  hooks: AgentHooks;
}

/** What children of an agent at `depth` can be, when the `subagents` feature is on. */
export function subagentSetup(parts: TreeParts, depth: number): SubagentSetup | undefined {
  const { features, settings } = parts.configuration;
  if (!features.has('subagents')) return undefined;
  return { depth, types: parts.types, limits: settings.agents };
}

/**
 * A child agent's runtime, in this process: the parent's workspace, settings, permission
 * engine, sandbox (probed once for all), background work and MCP servers; its own session
 * folder, read-before-edit memory and pool (agent kind `subagent`, the tools of its type, the
 * subagent tools only above the depth limit). Approval requests go to the user's side tagged
 * with the child; with no one there (headless) an ask is refused at once. Nothing here starts a
 * process or reads settings again, so a child costs a pool and a few objects.
 */
export function createChildRuntime(tree: TreeParts, options: ChildRuntimeOptions): AgentRuntime {
  const parts = options.worktree ? isolatedParts(tree, options.worktree) : tree;
  const { configuration, permissions, services, place } = parts;
  const { workspace, documentsRoot, settings } = configuration;
  const depth = options.tag.depth;
  const tools = parts.tools.forChild({
    capabilities: options.capabilities,
    childAgents: depth < settings.agents.maxDepth,
    keep: (tool) => options.keepTool(tool),
    isDenied: (name) => permissions.isToolDenied(name),
  });
  tools.setMode(permissions.mode);
  const sessionId = options.tag.id;
  const sessionDir = join(agentSessionsDir(documentsRoot, workspace), sessionId);
  const readFiles = new ReadTracker((path) => parts.rules.touch(path, place.workspace));
  // The child's messages are signed as the child: its name (its team member name) and its id.
  const sender = `${options.tag.name} (${sessionId})`;
  const parentAsk = parts.askUser;
  const askUser = parentAsk && ((request: ApprovalRequest) => parentAsk({ ...request, agent: options.tag }));
  const hooks = parts.hooks.forChild(options.tag);
  const callHooks = toolHooks(hooks.set, options.tag, () => place.cwd);

  return {
    cwd: place.cwd,
    workspace: place.workspace,
    documentsRoot,
    sessionId,
    sessionDir,
    rules: parts.rules,
    settings,
    get conditions() {
      return tools.conditions;
    },
    get pool() {
      return tools.pool;
    },
    get definedTools() {
      return tools.definedTools;
    },
    skills: parts.skills,
    // A child has no plan-mode tools; the permission engine's mode stays the parent's.
    setMode: (mode) => tools.setMode(mode),
    createExecution: (extra: ExecutionOptions = {}) =>
      toolExecution(
        parts,
        {
          pool: tools.pool,
          sessionDir,
          conditions: tools.conditions,
          readFiles,
          mcp: tools.mcp,
          deferredTools: tools.deferredTools,
          sender,
          askUser,
          hooks: callHooks,
        },
        extra,
      ),
    hooks,
    tasks: services.background.tasks,
    subagents: subagentSetup(parts, depth),
    child: (next) => createChildRuntime(tree, next),
    addRecipients: (source) => services.messaging.router.addSource(source),
    teamMembers: services.messaging.teamMembers,
    isolate: (name) => isolate(tree, name, sessionDir),
    commands: parts.commands,
  };
}

/** A child's parts in its own worktree: the cwd, the permission workspace and the sandbox's root move there. */
function isolatedParts(tree: TreeParts, worktree: Worktree): TreeParts {
  const place = new RuntimePlace(tree.place.home, tree.configuration.workspace, tree.place.trusted);
  place.moveTo(worktree);
  const permissions = tree.permissionsAt(place);
  // In Plan mode, a child's worktree is no exception: the parent's mode holds there too.
  permissions.setMode(tree.permissions.mode);
  return { ...tree, place, permissions };
}
