import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AgentInteraction } from '../agent/types.js';
import { resolveFeatures, unknownFeatures } from '../config/features.js';
import { loadSettings } from '../config/load.js';
import { documentsRoot as defaultDocumentsRoot, workspaceSettingsPath } from '../config/paths.js';
import type { ResolvedSettings } from '../config/settings.js';
import { isFolderTrusted, type WorkspaceTrust } from '../config/trust.js';
import {
  type AgentKind,
  APPROVAL_CATEGORIES,
  type ApprovalCategory,
  type Mode,
  type Profile,
  type SettingsLayer,
} from '../config/types.js';
import { describeServer, loadMcpConfig } from '../mcp/config.js';
import type { McpAccess } from '../mcp/types.js';
import { RulePermissionEngine } from '../permission/engine.js';
import { realPathOf } from '../permission/paths.js';
import type { SandboxDescription, SandboxStatus } from '../permission/sandbox/bubblewrap.js';
import { Sandbox } from '../permission/sandbox/runner.js';
import { BackgroundServices } from '../schedule/background_services.js';
import type { ScheduledPromptHandler } from '../schedule/schedule_host.js';
import { newSessionId, sessionFolder } from '../session/ids.js';
import { defaultConditions, FULL_CAPABILITIES } from '../tool/conditions.js';
import { ToolExecution } from '../tool/executor.js';
import { assemblePool, findTool } from '../tool/pool.js';
import type { ApprovalAnswer, ApprovalRequest, CallHooks, ToolCall } from '../tool/run_call.js';
import type { PoolConditions, ProviderCapabilities, Tool, ToolResult } from '../tool/types.js';
import { builtinTools } from '../tools/index.js';
import { withDeferredToolNames } from '../tools/mcp/tool_search.js';
import { SandboxGate } from './sandbox_gate.js';
import type { BackgroundCommand } from './types.js';

export interface RuntimeOptions {
  /** The working folder; the workspace is its real path. Default: process.cwd(). */
  cwd?: string;
  profile?: Profile;
  mode?: Mode;
  strictPlanMode?: boolean;
  /** Feature switches on top of settings and LATHE_FEATURES: `name` turns on, `-name` off. */
  features?: string[];
  /** Approval categories whose asks are answered yes, or "all". */
  approve?: readonly ApprovalCategory[] | 'all';
  yolo?: boolean;
  /** A settings layer applied last, as the command line is. */
  settings?: SettingsLayer;
  /** The user trusts this folder for this run (`--trust`), whatever the trusted-folders list says. */
  trust?: boolean;
  documentsRoot?: string;
  env?: NodeJS.ProcessEnv;
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
  hooks?: CallHooks;
  sessionId?: string;
  /** More folders the tools may read and edit as they do the workspace (`--add-dir`). */
  addDirs?: string[];
  /** Where the tools save files (results, command output) instead of the session's folder. */
  sessionDir?: string;
  /** The lathe command (its JS file) that schedules and triggers start headless runs with; the CLI passes its own. */
  latheBin?: string;
}

export interface Runtime {
  readonly cwd: string;
  readonly workspace: string;
  readonly documentsRoot: string;
  readonly sessionId: string;
  readonly sessionDir: string;
  readonly settings: ResolvedSettings;
  /** Whether the user trusts the workspace, and what of it waits for that trust. */
  readonly trust: WorkspaceTrust;
  readonly permissions: RulePermissionEngine;
  /** Problems with settings, rules or switches: reported, never fatal. */
  readonly warnings: string[];
  readonly conditions: PoolConditions;
  /** The tools offered under the current conditions, in pool order. */
  readonly pool: Tool[];
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
}

export interface BackgroundWork {
  kind: 'command' | 'task';
  id: string;
  command: string;
  outputPath?: string;
}

export interface ExecutionOptions {
  interaction?: AgentInteraction;
  signal?: AbortSignal;
  onStart?: (call: ToolCall) => void;
  onResult?: (call: ToolCall, result: ToolResult) => void;
  progress?: (message: string) => void;
}

export class RuntimeError extends Error {}

function checkFolder(cwd: string): string {
  let isDirectory = false;
  try {
    isDirectory = statSync(cwd).isDirectory();
  } catch {
    throw new RuntimeError(`The working folder ${cwd} does not exist.`);
  }
  if (!isDirectory) throw new RuntimeError(`The working folder ${cwd} is not a folder.`);
  return realPathOf(cwd);
}

/**
 * Where a runtime with these options works: the workspace (the working folder's real path) and
 * documents-root; throws RuntimeError for a working folder that is not there.
 */
export function runtimePlaces(options: Pick<RuntimeOptions, 'cwd' | 'documentsRoot' | 'env'> = {}): {
  workspace: string;
  documentsRoot: string;
} {
  return {
    workspace: checkFolder(resolve(options.cwd ?? process.cwd())),
    documentsRoot: resolve(options.documentsRoot ?? defaultDocumentsRoot(options.env ?? process.env)),
  };
}

/** The SDK entry point: one runtime per session, the same path the CLI and the agent use. */
export function createRuntime(options: RuntimeOptions = {}): Runtime {
  const env = options.env ?? process.env;
  const { workspace, documentsRoot } = runtimePlaces(options);
  const cwd = workspace;
  const commandLine: SettingsLayer = { ...options.settings };
  if (options.profile) commandLine.profile = options.profile;
  if (options.mode) commandLine.mode = options.mode;
  if (options.strictPlanMode !== undefined) commandLine.strictPlanMode = options.strictPlanMode;
  const workspaceTrusted = options.trust === true || isFolderTrusted(documentsRoot, workspace);
  const settings = loadSettings({ documentsRoot, workspace, commandLine, workspaceTrusted });
  const warnings = [...settings.warnings];
  const trust: WorkspaceTrust = {
    trusted: workspaceTrusted,
    settings: settings.ignoredUntrusted,
    mcpServers: workspaceTrusted
      ? []
      : loadMcpConfig({ documentsRoot, workspace, workspaceTrusted, env }).untrusted.map((server) =>
          describeServer(server, workspace),
        ),
  };

  const enable = (options.features ?? []).filter((f) => !f.startsWith('-'));
  const disable = (options.features ?? []).filter((f) => f.startsWith('-')).map((f) => f.slice(1));
  const features = resolveFeatures({
    settingsLayers: settings.featureLayers,
    env: env.LATHE_FEATURES,
    enable,
    disable,
  });
  for (const name of unknownFeatures(features))
    warnings.push(`unknown feature "${name}" (see docs/tools.md)`);
  if (Array.isArray(options.approve)) {
    for (const c of options.approve) {
      if (!(APPROVAL_CATEGORIES as readonly string[]).includes(c)) {
        warnings.push(`unknown approval category "${c}" (use ${APPROVAL_CATEGORIES.join(', ')} or all)`);
      }
    }
  }

  const builtins = builtinTools();
  let external = options.externalTools ?? [];
  let mcp = options.mcp;
  let deferred: readonly string[] = [];
  const canonicalName = (name: string) => findTool([...builtins, ...external], name)?.name ?? name;
  const permissions = new RulePermissionEngine({
    settings,
    workspace,
    documentsRoot,
    cwd,
    yolo: options.yolo,
    approve: options.approve,
    canonicalName,
    extraRoots: options.addDirs,
  });
  warnings.push(...permissions.warnings);

  let capabilities: Partial<ProviderCapabilities> = { ...options.capabilities };
  const conditionsFor = (mode: Mode): PoolConditions =>
    defaultConditions({
      profile: settings.profile,
      mode,
      strictPlanMode: settings.strictPlanMode,
      features,
      capabilities: { ...FULL_CAPABILITIES, ...capabilities },
      agentKind: options.agentKind ?? 'main',
      mcpConnected: external.length > 0 || mcp !== undefined,
      jsonSchema: options.jsonSchema ?? false,
      nodeEnv: env.NODE_ENV,
    });
  const poolFor = (conditions: PoolConditions) =>
    withDeferredToolNames(
      assemblePool({ builtins, external, conditions, isDenied: (name) => permissions.isToolDenied(name) }),
      deferred,
    );

  const sessionId = options.sessionId ?? newSessionId();
  const sessionDir = options.sessionDir ?? sessionFolder(documentsRoot, workspace, sessionId);
  const readFiles = new Map<string, string>();
  const backgroundCommands = new Map<string, BackgroundCommand>();
  const background = new BackgroundServices({
    documentsRoot,
    workspace,
    env,
    features,
    latheBin: options.latheBin,
  });
  const sandbox = new Sandbox(
    {
      mode: settings.sandbox.mode,
      network: settings.sandbox.network,
      workspace,
      documentsRoot,
      readDenied: () => permissions.readDenyPatterns(),
    },
    { agentMode: () => permissions.mode },
  );
  const sandboxGate = new SandboxGate({
    sandbox,
    modeSource: settings.sandbox.modeSource,
    workspaceSettingsPath: workspaceSettingsPath(workspace),
    workspaceTrusted,
    canAsk: options.askUser !== undefined && !options.yolo,
  });
  let conditions = conditionsFor(permissions.mode);
  let pool = poolFor(conditions);
  let callCounter = 0;

  const createExecution = (extra: ExecutionOptions = {}): ToolExecution =>
    new ToolExecution({
      pool,
      context: {
        cwd,
        workspace,
        documentsRoot,
        sessionDir,
        conditions,
        permissions,
        readFiles,
        backgroundCommands,
        sandbox,
        sandboxGate: () => sandboxGate.decide(),
        maxOutputBytes: settings.commands.maxOutputBytes,
        tasks: background.tasks,
        schedules: background.schedules,
        mcp,
        interaction: extra.interaction,
        progress: extra.progress,
      },
      askUser: options.askUser,
      hooks: options.hooks,
      signal: extra.signal,
      onStart: extra.onStart,
      onResult: extra.onResult,
    });

  const runTools = async (calls: ToolCall[]): Promise<ToolResult[]> => {
    const execution = createExecution();
    for (const call of calls) execution.add(call);
    execution.close();
    const results: ToolResult[] = [];
    for await (const { result } of execution.results()) results.push(result);
    return results;
  };

  const stopBackgroundCommands = () => {
    for (const command of backgroundCommands.values()) if (!command.finished) command.kill();
  };

  return {
    cwd,
    workspace,
    documentsRoot,
    sessionId,
    sessionDir,
    settings,
    trust,
    permissions,
    warnings,
    get conditions() {
      return conditions;
    },
    get pool() {
      return pool;
    },
    get mcp() {
      return mcp;
    },
    async runTool(name, input) {
      const [result] = await runTools([{ id: `call_${++callCounter}`, name, input }]);
      return result;
    },
    runTools,
    createExecution,
    setMode(mode) {
      permissions.setMode(mode);
      conditions = conditionsFor(mode);
      pool = poolFor(conditions);
    },
    checkSandbox: () => sandbox.check(),
    describeSandbox: () => sandbox.describe(),
    sandboxNotice: () => sandboxGate.notice(),
    get sandboxRefusals() {
      return sandboxGate.refused;
    },
    runningBackgroundWork() {
      const commands = [...backgroundCommands.values()]
        .filter((c) => !c.finished)
        .map((c) => ({ kind: 'command' as const, id: c.id, command: c.command, outputPath: c.outputPath }));
      const tasks = [...background.tasks.values()]
        .filter((t) => t.status === 'running' && t.command !== undefined)
        .map((t) => ({ kind: 'task' as const, id: t.id, command: t.command!, outputPath: t.outputPath }));
      return [...commands, ...tasks];
    },
    setExternalTools(tools, next) {
      external = tools;
      mcp = next?.access ?? mcp;
      deferred = next?.deferred ?? [];
      conditions = conditionsFor(permissions.mode);
      pool = poolFor(conditions);
    },
    detachForegroundCommands() {
      let count = 0;
      for (const command of backgroundCommands.values()) {
        if (command.foreground && !command.finished && command.detach) {
          command.detach();
          count++;
        }
      }
      return count;
    },
    stopBackgroundCommands,
    onScheduledPrompt: (handler) => background.onScheduledPrompt(handler),
    async dispose() {
      stopBackgroundCommands();
      await Promise.all([...[...backgroundCommands.values()].map((c) => c.done), background.dispose()]);
      sandbox.dispose();
    },
    setCapabilities(next) {
      capabilities = { ...capabilities, ...next };
      conditions = conditionsFor(permissions.mode);
      pool = poolFor(conditions);
    },
  };
}
