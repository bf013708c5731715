import type { CommandCatalog } from '../config/commands/index.js';
import type { RuleSet } from '../config/rules/index.js';
import type { SkillCatalog } from '../config/skills/index.js';
import type { AgentHooks } from '../hooks/index.js';
import type { LanguageServers } from '../lsp/language_servers.js';
import { conversationMark } from './checkpoint_service.js';
import { createChildRuntime, subagentSetup, type TreeParts } from './child_runtime.js';
import { isolate } from './isolation.js';
import type { RuntimePlace } from './place.js';
import type { Runtime } from './runtime_types.js';
import type { ToolRuns } from './tool_runs.js';

/** What a runtime is made of once every step of its start-up is done. */
export interface RuntimeParts {
  tree: TreeParts;
  place: RuntimePlace;
  sessionId: string;
  sessionDir: string;
  hooks: AgentHooks;
  rules: RuleSet;
  skills: SkillCatalog;
  commands: CommandCatalog;
  languageServers: LanguageServers;
  runs: ToolRuns;
  dispose(): Promise<void>;
}

/** The runtime its clients see: the parts behind one face, read live where they change. */
export function runtimeHandle(parts: RuntimeParts): Runtime {
  const { tree, place, sessionId, sessionDir, hooks, rules, skills, commands, languageServers, runs } = parts;
  const { configuration, permissions, services, tools } = tree;
  const { workspace, documentsRoot, settings, trust, warnings } = configuration;
  return {
    cwd: workspace,
    workspace,
    place,
    documentsRoot,
    sessionId,
    sessionDir,
    settings,
    trust,
    hooks,
    permissions,
    warnings,
    rules,
    skills,
    get conditions() {
      return tools.conditions;
    },
    get pool() {
      return tools.pool;
    },
    get definedTools() {
      return tools.definedTools;
    },
    get mcp() {
      return tools.mcp;
    },
    runTool: runs.runTool,
    runTools: runs.runTools,
    createExecution: runs.createExecution,
    setMode(mode) {
      permissions.setMode(mode);
      tools.setMode(mode);
    },
    checkSandbox: () => services.sandbox.check(),
    describeSandbox: () => services.sandbox.describe(),
    sandboxNotice: () => services.sandboxGate.notice(),
    get sandboxRefusals() {
      return services.sandboxGate.refused;
    },
    runningBackgroundWork: () => services.runningBackgroundWork(),
    setExternalTools: (external, mcp) => tools.setExternalTools(external, mcp),
    detachForegroundCommands: () => services.detachForegroundCommands(),
    stopBackgroundCommands: () => services.stopBackgroundCommands(),
    onScheduledPrompt: (handler) => services.background.onScheduledPrompt(handler),
    messages: services.messaging.router,
    teams: services.messaging.teams,
    onPeerMessage: (handler) => services.messaging.onPeerMessage(handler),
    onWebhookNotice: (report) => services.pullRequests?.onNotice(report) ?? (() => undefined),
    dispose: parts.dispose,
    setCapabilities: (next) => tools.setCapabilities(next),
    tasks: services.background.tasks,
    subagents: subagentSetup(tree, 0),
    child: (next) => createChildRuntime(tree, next),
    addRecipients: (source) => services.messaging.router.addSource(source),
    teamMembers: services.messaging.teamMembers,
    isolate: (name) => isolate(tree, name, sessionDir),
    commands,
    brief: services.sessionTools.brief,
    checkpoints: services.checkpoints,
    checkpointTurn: (prompt, history, startAfter) =>
      services.checkpoints.beforeTurn(place.workspace, prompt, conversationMark(history), startAfter),
    languageServers,
    warmUp: (startAfter) => {
      void startAfter.then(() => languageServers.startForWorkspace(place.workspace));
    },
  };
}
